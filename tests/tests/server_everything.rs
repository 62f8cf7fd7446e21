//! The client against `@modelcontextprotocol/server-everything` over stdio, streamable HTTP
//! and HTTP+SSE. What the server does is in `tests/peers/SERVER-EVERYTHING.md`.

#![allow(deprecated)] // sampling, roots and logging are SEP-2577-deprecated, and tested here

use std::time::Duration;

use mcp_assured::{
    code,
    model::{
        ArgumentInfo, CompleteRequestParams, CompletionContext, CreateMessageResult, ElicitResult,
        ElicitationAction, LoggingLevel, Reference, Root, SamplingMessage,
    },
    prelude::*,
};
use mcp_assured_tests::{Connected, Transport, connect, for_each_transport};
use serde_json::json;

async fn connect(transport: Transport) -> Connected {
    connect::everything(transport, |builder| builder).await
}

/// A client that answers sampling, elicitation and roots.
async fn connect_answering(transport: Transport) -> Connected {
    connect::everything(transport, |builder| {
        builder
            .on_sampling(|request| {
                let asked = request
                    .messages
                    .first()
                    .and_then(|m| m.content.first())
                    .and_then(|c| c.as_text())
                    .map(|t| t.text.clone())
                    .unwrap_or_default();
                CreateMessageResult::new(
                    SamplingMessage::assistant_text(format!("sampled <{asked}>")),
                    "test-model".into(),
                )
            })
            .on_elicitation(|_| {
                ElicitResult::new(ElicitationAction::Accept).with_content(json!({"name": "Ada"}))
            })
            .roots([Root::new("file:///tmp/a").with_name("A")])
    })
    .await
}

for_each_transport!(
    reports_server_info,
    lists_the_always_present_tools,
    lists_the_capability_tools_when_the_client_answers,
    calls_echo_and_get_sum,
    returns_an_image,
    returns_structured_content_matching_its_schema,
    returns_annotations_links_and_embedded_resources,
    an_unknown_tool_is_a_tool_error,
    reads_static_and_template_resources,
    gets_prompts_with_arguments,
    completes_arguments,
    sends_resource_updates_to_subscribers,
    sends_log_messages_at_the_level_set,
    answers_sampling,
    answers_elicitation,
    answers_roots,
    reports_progress_of_a_long_operation,
    pings,
);

async fn reports_server_info(transport: Transport) {
    let client = connect(transport).await;
    let info = client.server_info();
    assert_eq!(info.name, "mcp-servers/everything");
    assert_eq!(client.protocol_version(), "2025-11-25");
    assert!(info.capabilities.tools.is_some());
    assert!(info.capabilities.resources.is_some());
    assert!(info.capabilities.prompts.is_some());
    assert!(info.capabilities.logging.is_some());
}

const ALWAYS: [&str; 12] = [
    "echo",
    "get-annotated-message",
    "get-env",
    "get-resource-links",
    "get-resource-reference",
    "get-structured-content",
    "get-sum",
    "get-tiny-image",
    "gzip-file-as-resource",
    "toggle-simulated-logging",
    "toggle-subscriber-updates",
    "trigger-long-running-operation",
];

async fn lists_the_always_present_tools(transport: Transport) {
    let client = connect(transport).await;
    let names = connect::everything_tool_names(&client, 13).await;
    for tool in ALWAYS {
        assert!(
            names.contains(&tool.to_owned()),
            "{tool} missing: {names:?}"
        );
    }
    assert!(
        names.contains(&"simulate-research-query".to_owned()),
        "{names:?}"
    );
    assert!(
        !names.contains(&"trigger-sampling-request".to_owned()),
        "{names:?}"
    );
}

async fn lists_the_capability_tools_when_the_client_answers(transport: Transport) {
    let client = connect_answering(transport).await;
    let names = connect::everything_tool_names(&client, 16).await;
    for tool in [
        "get-roots-list",
        "trigger-sampling-request",
        "trigger-elicitation-request",
        "trigger-url-elicitation",
    ] {
        assert!(
            names.contains(&tool.to_owned()),
            "{tool} missing: {names:?}"
        );
    }
}

async fn calls_echo_and_get_sum(transport: Transport) {
    let client = connect(transport).await;
    client
        .call_tool("echo", json!({"message": "hello"}))
        .await
        .unwrap()
        .assert()
        .is_success()
        .text_equals("Echo: hello");
    client
        .call_tool("get-sum", json!({"a": 2, "b": 3.5}))
        .await
        .unwrap()
        .assert()
        .text_equals("The sum of 2 and 3.5 is 5.5.");
}

async fn returns_an_image(transport: Transport) {
    let client = connect(transport).await;
    let image = client.call_tool("get-tiny-image", json!({})).await.unwrap();
    image
        .assert()
        .is_success()
        .has_content_count(3)
        .has_image("image/png");
    let data = image.content[1]
        .as_image()
        .expect("an image block")
        .data
        .clone();
    assert!(data.starts_with("iVBORw0KGgo"), "base64 PNG: {data}");
}

async fn returns_structured_content_matching_its_schema(transport: Transport) {
    let client = connect(transport).await;
    let tool = client.tool("get-structured-content").await.unwrap();
    client
        .call_tool("get-structured-content", json!({"location": "New York"}))
        .await
        .unwrap()
        .assert()
        .structured_equals(json!({"temperature": 33, "conditions": "Cloudy", "humidity": 82}))
        .conforms_to_output_schema(&tool);
}

async fn returns_annotations_links_and_embedded_resources(transport: Transport) {
    let client = connect(transport).await;
    let annotated = client
        .call_tool("get-annotated-message", json!({"messageType": "error"}))
        .await
        .unwrap();
    annotated.assert().text_equals("Error: Operation failed");
    let block = serde_json::to_value(&annotated.content[0]).unwrap();
    assert_eq!(block["annotations"]["priority"], 1.0);
    client
        .call_tool("get-resource-links", json!({"count": 2}))
        .await
        .unwrap()
        .assert()
        .has_content_count(3)
        .has_resource_link(None);
    client
        .call_tool(
            "get-resource-reference",
            json!({"resourceType": "Text", "resourceId": 1}),
        )
        .await
        .unwrap()
        .assert()
        .has_embedded_resource("text/plain");
}

async fn an_unknown_tool_is_a_tool_error(transport: Transport) {
    // server-everything answers an unknown tool with an `isError` result, not a JSON-RPC
    // error; the harness reports what the server does.
    let client = connect(transport).await;
    client
        .call_tool("nope", json!({}))
        .await
        .unwrap()
        .assert()
        .is_tool_error()
        .text_contains("nope");
}

async fn reads_static_and_template_resources(transport: Transport) {
    let client = connect(transport).await;
    client
        .list_resources()
        .await
        .unwrap()
        .assert()
        .has_count(7)
        .contains_uri("demo://resource/static/document/architecture.md");
    client
        .read_resource("demo://resource/static/document/architecture.md")
        .await
        .unwrap()
        .assert()
        .has_text("text/markdown");
    let templates: Vec<String> = client
        .list_resource_templates()
        .await
        .unwrap()
        .iter()
        .map(|t| t.uri_template.clone())
        .collect();
    assert!(
        templates.contains(&"demo://resource/dynamic/text/{resourceId}".to_owned()),
        "{templates:?}"
    );
    client
        .read_resource("demo://resource/dynamic/text/2")
        .await
        .unwrap()
        .assert()
        .text_contains("Resource 2");
    client
        .read_resource("demo://resource/dynamic/blob/3")
        .await
        .unwrap()
        .assert()
        .has_blob("text/plain");
}

async fn gets_prompts_with_arguments(transport: Transport) {
    let client = connect(transport).await;
    client
        .list_prompts()
        .await
        .unwrap()
        .assert()
        .contains_prompt("simple-prompt")
        .prompt("args-prompt")
        .has_argument("city", true)
        .has_argument("state", false);
    client
        .get_prompt("simple-prompt", json!(null))
        .await
        .unwrap()
        .assert()
        .has_message("user", "This is a simple prompt without arguments.");
    client
        .get_prompt("args-prompt", json!({"city": "Paris", "state": "TX"}))
        .await
        .unwrap()
        .assert()
        .has_message("user", "What's weather in Paris, TX?");
    let with_resource = client
        .get_prompt(
            "resource-prompt",
            json!({"resourceType": "Text", "resourceId": 3}),
        )
        .await
        .unwrap();
    with_resource.assert().has_message_count(2);
    client
        .get_prompt("args-prompt", json!({}))
        .await
        .assert_err()
        .has_code(code::INVALID_PARAMS)
        .message_contains("city");
}

async fn completes_arguments(transport: Transport) {
    let client = connect(transport).await;
    let departments = client
        .complete(
            Reference::for_prompt("completable-prompt"),
            "department",
            "S",
        )
        .await
        .unwrap();
    assert_eq!(departments.completion.values, ["Sales", "Support"]);
    let mut params = CompleteRequestParams::new(
        Reference::for_prompt("completable-prompt"),
        ArgumentInfo::new("name", ""),
    );
    params.context = Some(
        serde_json::from_value::<CompletionContext>(json!({"arguments": {"department": "Sales"}}))
            .unwrap(),
    );
    let names = client.complete_with(params).await.unwrap();
    assert_eq!(names.completion.values, ["David", "Eve", "Frank"]);
    let ids = client
        .complete(
            Reference::for_resource("demo://resource/dynamic/text/{resourceId}"),
            "resourceId",
            "5",
        )
        .await
        .unwrap();
    assert_eq!(ids.completion.values, ["5"]);
}

async fn sends_resource_updates_to_subscribers(transport: Transport) {
    let client = connect(transport).await;
    let uri = "demo://resource/static/document/architecture.md";
    client.subscribe(uri).await.unwrap();
    client
        .call_tool("toggle-subscriber-updates", json!({}))
        .await
        .unwrap()
        .assert()
        .text_contains("Started simulated resource updated notifications");
    let update = client
        .wait_for_notification("notifications/resources/updated")
        .await
        .unwrap();
    assert_eq!(update.params["uri"], uri);
    client.unsubscribe(uri).await.unwrap();
    client
        .call_tool("toggle-subscriber-updates", json!({}))
        .await
        .unwrap()
        .assert()
        .text_contains("Stopped");
}

async fn sends_log_messages_at_the_level_set(transport: Transport) {
    let client = connect(transport).await;
    client.set_logging_level(LoggingLevel::Debug).await.unwrap();
    client
        .call_tool("toggle-simulated-logging", json!({}))
        .await
        .unwrap()
        .assert()
        .text_contains("Started simulated, random-leveled logging");
    client
        .wait_for_notification("notifications/message")
        .await
        .unwrap();
    let logs = client.log_messages();
    assert!(
        logs.iter().any(
            |l| l.text().contains("message - SessionId") || l.text().contains("-level message")
        ),
        "{logs:?}"
    );
    client
        .call_tool("toggle-simulated-logging", json!({}))
        .await
        .unwrap();
}

async fn answers_sampling(transport: Transport) {
    let client = connect_answering(transport).await;
    connect::everything_tool_names(&client, 16).await;
    client
        .call_tool("trigger-sampling-request", json!({"prompt": "2+2?"}))
        .await
        .unwrap()
        .assert()
        .is_success()
        .text_contains("LLM sampling result:")
        .text_contains("sampled <Resource trigger-sampling-request context: 2+2?>");
    let sampling: Vec<_> = client
        .server_requests()
        .into_iter()
        .filter(|r| r.method == "sampling/createMessage")
        .collect();
    assert_eq!(sampling.len(), 1);
    assert!(sampling[0].answered);
    assert_eq!(
        sampling[0].params["systemPrompt"],
        "You are a helpful test server."
    );
}

async fn answers_elicitation(transport: Transport) {
    let client = connect_answering(transport).await;
    connect::everything_tool_names(&client, 16).await;
    client
        .call_tool("trigger-elicitation-request", json!({}))
        .await
        .unwrap()
        .assert()
        .is_success()
        .text_contains("User provided the requested information")
        .text_contains("Name: Ada");
}

async fn answers_roots(transport: Transport) {
    let client = connect_answering(transport).await;
    connect::everything_tool_names(&client, 16).await;
    // The server asks for the roots by itself 350 ms after `initialized`.
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    while !client
        .server_requests()
        .iter()
        .any(|r| r.method == "roots/list")
    {
        assert!(
            tokio::time::Instant::now() < deadline,
            "the server never sent roots/list: {:?}",
            client.server_requests()
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    client
        .call_tool("get-roots-list", json!({}))
        .await
        .unwrap()
        .assert()
        .text_contains("URI: file:///tmp/a");
}

async fn reports_progress_of_a_long_operation(transport: Transport) {
    let client = connect(transport).await;
    let call = client
        .start_call_tool(
            "trigger-long-running-operation",
            json!({"duration": 0.3, "steps": 3}),
        )
        .await
        .unwrap();
    let first = call.wait_for_progress().await.unwrap();
    assert_eq!((first.progress, first.total), (1.0, Some(3.0)));
    let token = serde_json::to_value(call.progress_token()).unwrap();
    call.result()
        .await
        .unwrap()
        .assert()
        .text_contains("Long running operation completed");
    let progress: Vec<f64> = client
        .progress_notifications()
        .iter()
        .filter(|p| p.progress_token == token)
        .map(|p| p.progress)
        .collect();
    assert_eq!(progress, [1.0, 2.0, 3.0]);
}

async fn pings(transport: Transport) {
    let client = connect(transport).await;
    client.ping().await.unwrap();
}
