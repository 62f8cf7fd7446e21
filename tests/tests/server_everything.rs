//! The client against `@modelcontextprotocol/server-everything` 2026.8.31 over stdio, streamable
//! HTTP and HTTP+SSE: one function per feature, run once per transport. What the server does,
//! and why each expectation is what it is, is in `tests/peers/SERVER-EVERYTHING.md`.

#![allow(deprecated)] // sampling, roots and logging are SEP-2577-deprecated, and tested here

use std::collections::HashMap;

use mcp_assured::{
    Error, LogMessage, McpClient, Notification, ServerRequest, code,
    model::{
        ArgumentInfo, CompleteRequestParams, CompletionContext, ContentBlock, ElicitResult,
        ElicitationAction, LoggingLevel, Reference, ResourceContents, Role, Root, Tool,
    },
    prelude::*,
};
use mcp_assured_tests::{Connected, Transport, connect, for_each_transport, peers};
use serde_json::{Value, json};

for_each_transport!(
    stdio, streamable_http, sse =>
    reports_server_info,
    negotiates_an_older_protocol_version,
    lists_the_always_present_tools,
    lists_the_capability_tools_once_announced,
    calls_echo,
    calls_get_sum,
    returns_a_tiny_png_image,
    returns_structured_content_matching_its_output_schema,
    returns_annotated_messages,
    returns_resource_links,
    returns_embedded_resources,
    an_unknown_tool_is_a_tool_error_result,
    lists_and_reads_static_resources,
    reads_text_and_blob_templates,
    rejects_unknown_resources,
    gets_prompts_with_arguments,
    completes_prompt_and_template_arguments,
    sends_updates_to_subscribers_until_unsubscribed,
    sends_simulated_log_messages,
    drops_log_messages_below_the_level,
    answers_sampling,
    answers_elicitation,
    accepts_elicitation_defaults,
    answers_roots_and_announces_changes,
    reports_progress_of_a_long_operation,
    pings,
);

// ----- connecting ------------------------------------------------------------------------------

/// A client with no server→client capabilities.
async fn connect(transport: Transport) -> Connected {
    connect::everything(transport, |builder| builder).await
}

/// A client that answers sampling, elicitation (form and URL) and roots.
async fn connect_answering(transport: Transport) -> Connected {
    connect::everything(transport, |builder| {
        builder
            .on_sampling(|request| connect::sampled(request, |asked| format!("sampled <{asked}>")))
            .on_elicitation(|_| {
                ElicitResult::new(ElicitationAction::Accept)
                    .with_content(json!({"name": "Ada", "check": true, "integer": 7}))
            })
            .roots([Root::new("file:///tmp/a").with_name("A")])
    })
    .await
}

// ----- the session -----------------------------------------------------------------------------

async fn reports_server_info(transport: Transport) {
    let client = connect(transport).await;
    let info = client.server_info();
    assert_eq!(info.name, "mcp-servers/everything");
    assert_eq!(info.title.as_deref(), Some("Everything Reference Server"));
    assert_eq!(info.version, "2.0.0");
    assert_eq!(client.protocol_version(), "2025-11-25");
    let instructions = info.instructions.as_deref().unwrap_or_default();
    assert!(
        instructions.starts_with("# Everything Server – Server Instructions"),
        "{instructions}"
    );
    let capabilities = serde_json::to_value(&info.capabilities).unwrap();
    assert_eq!(capabilities["tools"], json!({"listChanged": true}));
    assert_eq!(capabilities["prompts"], json!({"listChanged": true}));
    assert_eq!(
        capabilities["resources"],
        json!({"subscribe": true, "listChanged": true})
    );
    assert_eq!(capabilities["logging"], json!({}));
    assert_eq!(capabilities["completions"], json!({}));
    // Its `tasks` capability is not checked: rmcp 3.9's `ServerCapabilities` has no field
    // for it, so the client drops it.
}

async fn negotiates_an_older_protocol_version(transport: Transport) {
    let client =
        connect::everything(transport, |builder| builder.protocol_version("2025-06-18")).await;
    assert_eq!(client.protocol_version(), "2025-06-18");
    client
        .call_tool("echo", json!({"message": "old"}))
        .await
        .unwrap()
        .assert()
        .text_equals("Echo: old");
}

async fn pings(transport: Transport) {
    let client = connect(transport).await;
    client.ping().await.unwrap();
    assert_eq!(
        client.request("ping", Value::Null).await.unwrap(),
        json!({})
    );
}

// ----- tools -----------------------------------------------------------------------------------

/// Listed first, in this order, whatever the client declares.
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

fn names(tools: &[Tool]) -> Vec<String> {
    tools.iter().map(|t| t.name.to_string()).collect()
}

async fn lists_the_always_present_tools(transport: Transport) {
    let client = connect(transport).await;
    // The session tool is registered while the server handles `notifications/initialized`,
    // before it answers or reads anything else, so the first list already has it.
    let page = client.list_tools_page(None).await.unwrap();
    assert_eq!(
        page.next_cursor, None,
        "server-everything does not paginate"
    );
    let mut expected: Vec<&str> = ALWAYS.to_vec();
    expected.push("simulate-research-query");
    assert_eq!(names(&page.tools), expected);
    if transport != Transport::StreamableHttp {
        // Over streamable HTTP this announcement is lost: see the next test.
        client
            .wait_for_notification("notifications/tools/list_changed")
            .await
            .unwrap();
    }
    page.tools
        .assert()
        .tool("echo")
        .requires(["message"])
        .has_property_of_type("message", "string")
        .has_read_only_hint(true);
    page.tools
        .assert()
        .tool("get-sum")
        .requires(["a", "b"])
        .has_property_of_type("a", "number")
        .accepts_arguments(&json!({"a": 1, "b": 2}))
        .rejects_arguments(&json!({"a": "1", "b": 2}));
}

async fn lists_the_capability_tools_once_announced(transport: Transport) {
    let client = connect_answering(transport).await;
    let list_changed = |n: &Notification| n.method == "notifications/tools/list_changed";
    // One announcement per tool registered at `notifications/initialized`.
    let announced = if transport == Transport::StreamableHttp {
        // The server sends them while handling the `initialized` POST, before it answers it,
        // to the standalone GET stream, which the client can only open afterwards: they are
        // stored for `Last-Event-ID` replay but never delivered (a server-side race, not the
        // client's). The roots request and its log message come 350 ms later on that stream.
        0
    } else {
        for _ in 0..5 {
            client
                .wait_for_notification_matching(list_changed)
                .await
                .unwrap();
        }
        5
    };
    wait_for_log(&client, "Roots updated: 1 root(s) received from client").await;
    let received = client.notifications();
    assert_eq!(
        received.iter().filter(|n| list_changed(n)).count(),
        announced,
        "{received:#?}"
    );
    let mut expected: Vec<&str> = ALWAYS.to_vec();
    expected.extend([
        "get-roots-list",
        "trigger-elicitation-request",
        "trigger-url-elicitation",
        "trigger-sampling-request",
        "simulate-research-query",
    ]);
    assert_eq!(names(&client.list_tools().await.unwrap()), expected);
}

async fn calls_echo(transport: Transport) {
    let client = connect(transport).await;
    let echo = client
        .call_tool("echo", json!({"message": "hello"}))
        .await
        .unwrap();
    assert_eq!(echo.is_error, None);
    assert_eq!(
        serde_json::to_value(&echo.content).unwrap(),
        json!([{"type": "text", "text": "Echo: hello"}])
    );
}

async fn calls_get_sum(transport: Transport) {
    let client = connect(transport).await;
    client
        .call_tool("get-sum", json!({"a": 2, "b": 3.5}))
        .await
        .unwrap()
        .assert()
        .is_success()
        .has_content_count(1)
        .text_equals("The sum of 2 and 3.5 is 5.5.");
    // Schema violations are tool errors too, not JSON-RPC errors.
    client
        .call_tool("get-sum", json!({"a": "2", "b": 3}))
        .await
        .unwrap()
        .assert()
        .is_tool_error()
        .text_equals(
            "MCP error -32602: Input validation error: Invalid arguments for tool get-sum: \
             Invalid input: expected number, received string at a",
        );
}

async fn returns_a_tiny_png_image(transport: Transport) {
    let client = connect(transport).await;
    let result = client.call_tool("get-tiny-image", json!({})).await.unwrap();
    result
        .assert()
        .is_success()
        .has_content_count(3)
        .has_image("image/png")
        .text_equals("Here's the image you requested:\nThe image above is the MCP logo.");
    let image = result.content[1].as_image().expect("an image block");
    assert_eq!(image.mime_type, "image/png");
    let png = base64_decode(&image.data);
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n", "a PNG signature");
    assert_eq!(&png[12..16], b"IHDR");
    let (width, height) = (be_u32(&png[16..20]), be_u32(&png[20..24]));
    assert_eq!((width, height), (20, 20));
}

async fn returns_structured_content_matching_its_output_schema(transport: Transport) {
    let client = connect(transport).await;
    let tool = client.tool("get-structured-content").await.unwrap();
    let schema = tool.output_schema.as_deref().expect("an output schema");
    assert_eq!(
        schema["required"],
        json!(["temperature", "conditions", "humidity"])
    );
    assert_eq!(schema["additionalProperties"], json!(false));
    let chicago = client
        .call_tool("get-structured-content", json!({"location": "Chicago"}))
        .await
        .unwrap();
    chicago
        .assert()
        .is_success()
        .structured_equals(
            json!({"temperature": 36, "conditions": "Light rain / drizzle", "humidity": 82}),
        )
        .conforms_to_output_schema(&tool)
        .json_at("/conditions", "Light rain / drizzle");
    // The text block carries the same object, serialized.
    let text: Value = serde_json::from_str(&chicago.text()).unwrap();
    assert_eq!(Some(text), chicago.structured_content);
}

async fn returns_annotated_messages(transport: Transport) {
    let client = connect(transport).await;
    for (kind, text, audience, priority) in [
        (
            "error",
            "Error: Operation failed",
            vec![Role::User, Role::Assistant],
            1.0,
        ),
        (
            "success",
            "Operation completed successfully",
            vec![Role::User],
            0.7,
        ),
        (
            "debug",
            "Debug: Cache hit ratio 0.95, latency 150ms",
            vec![Role::Assistant],
            0.3,
        ),
    ] {
        let result = client
            .call_tool("get-annotated-message", json!({"messageType": kind}))
            .await
            .unwrap();
        result.assert().is_success().has_content_count(1);
        let block = result.content[0].as_text().expect("a text block");
        assert_eq!(block.text, text);
        let annotations = block.annotations.as_ref().expect("annotations");
        assert_eq!(annotations.audience.as_ref(), Some(&audience), "{kind}");
        assert_eq!(annotations.priority, Some(priority), "{kind}");
    }
    let with_image = client
        .call_tool(
            "get-annotated-message",
            json!({"messageType": "success", "includeImage": true}),
        )
        .await
        .unwrap();
    with_image
        .assert()
        .has_content_count(2)
        .has_image("image/png");
    let image = with_image.content[1].as_image().expect("an image block");
    let annotations = image.annotations.as_ref().expect("image annotations");
    assert_eq!(annotations.audience, Some(vec![Role::User]));
    assert_eq!(annotations.priority, Some(0.5));
}

async fn returns_resource_links(transport: Transport) {
    let client = connect(transport).await;
    let links = client
        .call_tool("get-resource-links", json!({"count": 2}))
        .await
        .unwrap();
    links
        .assert()
        .is_success()
        .has_resource_link(Some("text/plain"));
    // Odd ids are blobs, even ids text; every description says "plaintext": upstream quirks.
    assert_eq!(
        serde_json::to_value(&links.content).unwrap(),
        json!([
            {"type": "text", "text": "Here are 2 resource links to resources available in this server:"},
            {"type": "resource_link", "name": "Blob Resource 1", "uri": "demo://resource/dynamic/blob/1",
             "description": "Resource 1: plaintext resource", "mimeType": "text/plain"},
            {"type": "resource_link", "name": "Text Resource 2", "uri": "demo://resource/dynamic/text/2",
             "description": "Resource 2: plaintext resource", "mimeType": "text/plain"},
        ])
    );
}

async fn returns_embedded_resources(transport: Transport) {
    let client = connect(transport).await;
    let text = client
        .call_tool("get-resource-reference", json!({}))
        .await
        .unwrap();
    text.assert()
        .is_success()
        .has_content_count(3)
        .has_embedded_resource("text/plain")
        .text_equals(
            "Returning resource reference for Resource 1:\n\
             You can access this resource using the URI: demo://resource/dynamic/text/1",
        );
    let (uri, content) = embedded(&text.content[1]);
    assert_eq!(uri, "demo://resource/dynamic/text/1");
    assert_volatile(
        &content,
        "Resource 1: This is a plaintext resource created at ",
    );

    let blob = client
        .call_tool(
            "get-resource-reference",
            json!({"resourceType": "Blob", "resourceId": 2}),
        )
        .await
        .unwrap();
    blob.assert()
        .is_success()
        .has_embedded_resource("text/plain");
    let (uri, content) = embedded(&blob.content[1]);
    assert_eq!(uri, "demo://resource/dynamic/blob/2");
    assert_volatile(&content, "Resource 2: This is a base64 blob created at ");
}

async fn an_unknown_tool_is_a_tool_error_result(transport: Transport) {
    // server-everything answers an unknown tool with an `isError` result, not a JSON-RPC
    // error; the harness reports what the server does.
    let client = connect(transport).await;
    let unknown = client.call_tool("no-such-tool", json!({})).await.unwrap();
    assert_eq!(unknown.is_error, Some(true));
    assert_eq!(
        serde_json::to_value(&unknown.content).unwrap(),
        json!([{"type": "text", "text": "MCP error -32602: Tool no-such-tool not found"}])
    );
    // So is a tool that exists only for clients with a capability this one lacks.
    client
        .call_tool("trigger-sampling-request", json!({"prompt": "hi"}))
        .await
        .unwrap()
        .assert()
        .is_tool_error()
        .text_equals("MCP error -32602: Tool trigger-sampling-request not found");
}

// ----- resources -------------------------------------------------------------------------------

const DOCUMENTS: [&str; 7] = [
    "architecture.md",
    "extension.md",
    "features.md",
    "how-it-works.md",
    "instructions.md",
    "startup.md",
    "structure.md",
];

async fn lists_and_reads_static_resources(transport: Transport) {
    let client = connect(transport).await;
    let resources = client.list_resources().await.unwrap();
    let listed: Vec<(&str, &str, Option<&str>)> = resources
        .iter()
        .map(|r| (r.uri.as_str(), r.name.as_str(), r.mime_type.as_deref()))
        .collect();
    let uris: Vec<String> = DOCUMENTS
        .iter()
        .map(|file| format!("demo://resource/static/document/{file}"))
        .collect();
    let expected: Vec<(&str, &str, Option<&str>)> = uris
        .iter()
        .zip(DOCUMENTS)
        .map(|(uri, file)| (uri.as_str(), file, Some("text/markdown")))
        .collect();
    assert_eq!(listed, expected);

    let uri = "demo://resource/static/document/architecture.md";
    let read = client.read_resource(uri).await.unwrap();
    read.assert().has_text("text/markdown");
    let on_disk = peers::server_everything()
        .parent()
        .expect("dist/")
        .join("docs/architecture.md");
    let file = std::fs::read_to_string(&on_disk).unwrap();
    assert_eq!(
        read.contents,
        [ResourceContents::text(file, uri).with_mime_type("text/markdown")]
    );
}

async fn reads_text_and_blob_templates(transport: Transport) {
    let client = connect(transport).await;
    let templates: Vec<(String, String, Option<String>)> = client
        .list_resource_templates()
        .await
        .unwrap()
        .into_iter()
        .map(|t| (t.name.clone(), t.uri_template.clone(), t.mime_type.clone()))
        .collect();
    assert_eq!(
        templates,
        [
            (
                "Dynamic Text Resource".to_owned(),
                "demo://resource/dynamic/text/{resourceId}".to_owned(),
                Some("text/plain".to_owned())
            ),
            (
                "Dynamic Blob Resource".to_owned(),
                "demo://resource/dynamic/blob/{resourceId}".to_owned(),
                Some("application/octet-stream".to_owned())
            ),
        ]
    );

    let text = client
        .read_resource("demo://resource/dynamic/text/7")
        .await
        .unwrap();
    text.assert().has_text("text/plain");
    let [contents] = &text.contents[..] else {
        panic!("one content: {:?}", text.contents)
    };
    let (uri, content) = resource_contents(contents);
    assert_eq!(uri, "demo://resource/dynamic/text/7");
    assert!(matches!(content, Content::Text(_)), "{content:?}");
    assert_volatile(
        &content,
        "Resource 7: This is a plaintext resource created at ",
    );

    // The content's MIME type is text/plain although the template says octet-stream.
    let blob = client
        .read_resource("demo://resource/dynamic/blob/7")
        .await
        .unwrap();
    blob.assert().has_blob("text/plain");
    let [contents] = &blob.contents[..] else {
        panic!("one content: {:?}", blob.contents)
    };
    let (uri, content) = resource_contents(contents);
    assert_eq!(uri, "demo://resource/dynamic/blob/7");
    assert!(matches!(content, Content::Blob(_)), "{content:?}");
    assert_volatile(&content, "Resource 7: This is a base64 blob created at ");
}

async fn rejects_unknown_resources(transport: Transport) {
    let client = connect(transport).await;
    match client.read_resource("demo://nope").await {
        Err(Error::JsonRpc {
            code: code::INVALID_PARAMS,
            message,
            ..
        }) => assert_eq!(message, "MCP error -32602: Resource demo://nope not found"),
        other => panic!("expected a JSON-RPC error, got {other:?}"),
    }
    // A template match with a bad variable fails inside the server: an internal error.
    client
        .read_resource("demo://resource/dynamic/text/abc")
        .await
        .assert_err()
        .has_code(code::INTERNAL_ERROR)
        .message_contains("Unknown resource: demo://resource/dynamic/text/abc");
}

// ----- prompts and completion ------------------------------------------------------------------

async fn gets_prompts_with_arguments(transport: Transport) {
    let client = connect(transport).await;
    let prompts = client.list_prompts().await.unwrap();
    let listed: Vec<&str> = prompts.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(
        listed,
        [
            "simple-prompt",
            "args-prompt",
            "completable-prompt",
            "resource-prompt"
        ]
    );
    prompts
        .assert()
        .prompt("args-prompt")
        .has_argument("city", true)
        .has_argument("state", false);
    prompts
        .assert()
        .prompt("completable-prompt")
        .has_argument("department", true)
        .has_argument("name", true);

    let simple = client
        .get_prompt("simple-prompt", Value::Null)
        .await
        .unwrap();
    assert_eq!(
        serde_json::to_value(&simple.messages).unwrap(),
        json!([{"role": "user", "content": {"type": "text", "text": "This is a simple prompt without arguments."}}])
    );
    client
        .get_prompt("args-prompt", json!({"city": "Paris", "state": "TX"}))
        .await
        .unwrap()
        .assert()
        .has_message_count(1)
        .has_message("user", "What's weather in Paris, TX?");
    client
        .get_prompt("args-prompt", json!({"city": "Paris"}))
        .await
        .unwrap()
        .assert()
        .has_message("user", "What's weather in Paris?");

    // A number argument travels as its text.
    let with_resource = client
        .get_prompt(
            "resource-prompt",
            json!({"resourceType": "Blob", "resourceId": 3}),
        )
        .await
        .unwrap();
    with_resource.assert().has_message_count(2).has_message(
        "user",
        "This prompt includes the Blob resource with id: 3. Please analyze the following resource:",
    );
    let (uri, content) = embedded(&with_resource.messages[1].content);
    assert_eq!(uri, "demo://resource/dynamic/blob/3");
    assert_volatile(&content, "Resource 3: This is a base64 blob created at ");

    client
        .get_prompt("args-prompt", json!({}))
        .await
        .assert_err()
        .has_code(code::INVALID_PARAMS)
        .message_contains(
            "Invalid arguments for prompt args-prompt: Invalid input: expected string, received undefined at city",
        );
}

async fn completes_prompt_and_template_arguments(transport: Transport) {
    let client = connect(transport).await;
    let departments = client
        .complete(
            Reference::for_prompt("completable-prompt"),
            "department",
            "S",
        )
        .await
        .unwrap()
        .into_inner()
        .completion;
    assert_eq!(departments.values, ["Sales", "Support"]);
    assert_eq!(
        (departments.total, departments.has_more),
        (Some(2), Some(false))
    );

    let team = |department: Option<&str>| {
        let mut params = CompleteRequestParams::new(
            Reference::for_prompt("completable-prompt"),
            ArgumentInfo::new("name", ""),
        );
        params.context = department.map(|d| {
            CompletionContext::with_arguments(HashMap::from([("department".into(), d.into())]))
        });
        client.complete_with(params)
    };
    assert_eq!(
        team(Some("Sales")).await.unwrap().completion.values,
        ["David", "Eve", "Frank"]
    );
    assert_eq!(
        team(Some("Engineering")).await.unwrap().completion.values,
        ["Alice", "Bob", "Charlie"]
    );
    assert!(team(None).await.unwrap().completion.values.is_empty());

    for template in [
        "demo://resource/dynamic/text/{resourceId}",
        "demo://resource/dynamic/blob/{resourceId}",
    ] {
        let reference = || Reference::for_resource(template);
        let ids = client.complete(reference(), "resourceId", "5").await;
        assert_eq!(ids.unwrap().completion.values, ["5"], "{template}");
        let none = client.complete(reference(), "resourceId", "x").await;
        assert!(none.unwrap().completion.values.is_empty(), "{template}");
    }

    // An argument with no completer: no values, and no `total`.
    let free = client
        .complete(Reference::for_prompt("args-prompt"), "city", "P")
        .await
        .unwrap()
        .into_inner()
        .completion;
    assert!(free.values.is_empty());
    assert_eq!(free.total, None);
}

// ----- notifications ---------------------------------------------------------------------------

async fn sends_updates_to_subscribers_until_unsubscribed(transport: Transport) {
    let client = connect(transport).await;
    let first = "demo://resource/static/document/architecture.md";
    let second = "demo://resource/dynamic/text/1";
    let updated = |uri: &'static str| {
        move |n: &Notification| {
            n.method == "notifications/resources/updated" && n.params == json!({"uri": uri})
        }
    };

    client.subscribe(first).await.unwrap();
    toggle(&client, "toggle-subscriber-updates", "Started").await;
    client
        .wait_for_notification_matching(updated(first))
        .await
        .unwrap();
    // Stopped before the next 5 s tick, so nothing for `first` is still on its way.
    toggle(&client, "toggle-subscriber-updates", "Stopped").await;

    client.unsubscribe(first).await.unwrap();
    client.subscribe(second).await.unwrap();
    client.drain_notifications();
    // Turning updates on sends one at once for every URI still subscribed, `first` before
    // `second` (subscription order) if it were still subscribed.
    toggle(&client, "toggle-subscriber-updates", "Started").await;
    client
        .wait_for_notification_matching(updated(second))
        .await
        .unwrap();
    toggle(&client, "toggle-subscriber-updates", "Stopped").await;
    let since = client.notifications();
    assert!(
        !since.iter().any(updated(first)),
        "an update for an unsubscribed resource: {since:#?}"
    );
}

async fn sends_simulated_log_messages(transport: Transport) {
    let client = connect(transport).await;
    client.set_logging_level(LoggingLevel::Debug).await.unwrap();
    let started = toggle(&client, "toggle-simulated-logging", "Started").await;
    // "Started simulated, random-leveled logging for session <id> at a 5 second pace. ..."
    let session = started
        .strip_prefix("Started simulated, random-leveled logging for session ")
        .and_then(|rest| rest.split(' ').next())
        .unwrap_or_else(|| panic!("unexpected text: {started}"));
    // One message at once, at a random level (all pass `debug`), then one every 5 s.
    let message = client
        .wait_for_notification_matching(|n| {
            n.method == "notifications/message"
                && n.params["data"]
                    .as_str()
                    .is_some_and(|d| d.contains("level"))
        })
        .await
        .unwrap();
    let log: LogMessage = message.params_as().unwrap();
    let level = serde_json::to_value(log.level).unwrap();
    let level = level.as_str().expect("a level name");
    // "Debug-level message", ..., but "Alert level-message" (sic).
    let mut expected = if level == "alert" {
        "Alert level-message".to_owned()
    } else {
        format!("{}{}-level message", level[..1].to_uppercase(), &level[1..])
    };
    // Over stdio there is no session: the tool says `undefined` and the message nothing.
    if transport == Transport::Stdio {
        assert_eq!(session, "undefined");
    } else {
        expected.push_str(&format!(" - SessionId {session}"));
    }
    assert_eq!(log.text(), expected);
    assert_eq!(log.logger, None);
    toggle(&client, "toggle-simulated-logging", "Stopped").await;
}

async fn drops_log_messages_below_the_level(transport: Transport) {
    let client = connect(transport).await;
    let uri = "demo://resource/static/document/features.md";
    // Each (un)subscribe is acknowledged with an `info` log message, sent before the answer.
    client
        .set_logging_level(LoggingLevel::Warning)
        .await
        .unwrap();
    client.subscribe(uri).await.unwrap();
    client.set_logging_level(LoggingLevel::Info).await.unwrap();
    client.unsubscribe(uri).await.unwrap();
    let acknowledged =
        wait_for_log_containing(&client, "Received Unsubscribe Resource request").await;
    assert_eq!(acknowledged.params["level"], "info");
    // Both travel the same stream in order, so a subscribe message would be here by now.
    client.assert_notifications().has_log(
        LoggingLevel::Info,
        &format!("Received Unsubscribe Resource request: {uri}"),
    );
    assert!(
        !client
            .log_messages()
            .iter()
            .any(|l| l.text().contains("Received Subscribe")),
        "{:#?}",
        client.log_messages()
    );
}

async fn reports_progress_of_a_long_operation(transport: Transport) {
    let client = connect(transport).await;
    let call = client
        .start_call_tool(
            "trigger-long-running-operation",
            json!({"duration": 1, "steps": 3}),
        )
        .await
        .unwrap();
    let token = serde_json::to_value(call.progress_token()).unwrap();
    let first = call.wait_for_progress().await.unwrap();
    assert_eq!(first.progress_token, token);
    assert_eq!((first.progress, first.total), (1.0, Some(3.0)));
    call.result()
        .await
        .unwrap()
        .assert()
        .is_success()
        .text_equals("Long running operation completed. Duration: 1 seconds, Steps: 3.");
    // Everything sent before the answer is recorded by the time the answer is returned.
    let progress: Vec<(f64, Option<f64>, Option<String>)> = client
        .progress_notifications()
        .into_iter()
        .filter(|p| p.progress_token == token)
        .map(|p| (p.progress, p.total, p.message))
        .collect();
    assert_eq!(
        progress,
        [
            (1.0, Some(3.0), None),
            (2.0, Some(3.0), None),
            (3.0, Some(3.0), None)
        ]
    );
}

// ----- requests from the server ----------------------------------------------------------------

async fn answers_sampling(transport: Transport) {
    let client = connect_answering(transport).await;
    let result = client
        .call_tool(
            "trigger-sampling-request",
            json!({"prompt": "2+2?", "maxTokens": 42}),
        )
        .await
        .unwrap();
    result.assert().is_success().has_content_count(1);
    // The server quotes our answer back as JSON after a fixed line.
    let text = result.text();
    let answer = text
        .strip_prefix("LLM sampling result: \n")
        .unwrap_or_else(|| panic!("unexpected text: {text}"));
    let answer: Value = serde_json::from_str(answer).unwrap();
    assert_eq!(answer["model"], "test-model");
    assert_eq!(answer["role"], "assistant");
    assert_eq!(
        answer["content"],
        json!({"type": "text", "text": "sampled <Resource trigger-sampling-request context: 2+2?>"})
    );

    let requests = requests_of(&client, "sampling/createMessage");
    let [request] = &requests[..] else {
        panic!("one sampling request: {requests:#?}")
    };
    assert!(request.answered);
    assert_eq!(
        request.params["systemPrompt"],
        "You are a helpful test server."
    );
    assert_eq!(request.params["maxTokens"], 42);
    assert_eq!(
        request.params["messages"],
        json!([{"role": "user", "content": {"type": "text", "text": "Resource trigger-sampling-request context: 2+2?"}}])
    );
    assert_eq!(client.unanswered_server_requests(), []);
}

async fn answers_elicitation(transport: Transport) {
    let client = connect_answering(transport).await;
    let result = client
        .call_tool("trigger-elicitation-request", json!({}))
        .await
        .unwrap();
    result.assert().is_success().has_content_count(3);
    let texts: Vec<&str> = result
        .content
        .iter()
        .filter_map(|c| c.as_text().map(|t| t.text.as_str()))
        .collect();
    assert_eq!(texts[0], "✅ User provided the requested information!");
    assert_eq!(
        texts[1],
        "User inputs:\n- Name: Ada\n- Agreed to terms: true\n- Favorite Integer: 7"
    );
    let raw: Value = serde_json::from_str(
        texts[2]
            .strip_prefix("\nRaw result: ")
            .unwrap_or_else(|| panic!("unexpected text: {}", texts[2])),
    )
    .unwrap();
    assert_eq!(
        raw,
        json!({"action": "accept", "content": {"name": "Ada", "check": true, "integer": 7}})
    );

    let requests = requests_of(&client, "elicitation/create");
    let [request] = &requests[..] else {
        panic!("one elicitation request: {requests:#?}")
    };
    assert!(request.answered);
    assert_eq!(
        request.params["message"],
        "Please provide inputs for the following fields:"
    );
    let schema = &request.params["requestedSchema"];
    assert_eq!(schema["required"], json!(["name"]));
    let properties = schema["properties"].as_object().expect("properties");
    assert_eq!(properties.len(), 13, "{schema:#}");
    assert_eq!(client.unanswered_server_requests(), []);
}

/// SEP-1034: a client that accepts a form unchanged sends the defaults its schema declares,
/// of every type (string, integer, number, single and multiple selects, titled and legacy
/// enums), and nothing for the fields without one.
#[allow(clippy::approx_constant)] // 3.14 is the server's default, not an approximation of π
async fn accepts_elicitation_defaults(transport: Transport) {
    let client =
        connect::everything(transport, |builder| builder.accept_elicitation_defaults()).await;
    let result = client
        .call_tool("trigger-elicitation-request", json!({}))
        .await
        .unwrap();
    result.assert().is_success();
    let raw = result.text();
    let raw = raw
        .rsplit_once("Raw result: ")
        .unwrap_or_else(|| panic!("unexpected text: {raw}"))
        .1;
    let raw: Value = serde_json::from_str(raw).unwrap();
    assert_eq!(
        raw,
        json!({"action": "accept", "content": {
            "firstLine": "It was a dark and stormy night.",
            "integer": 42,
            "number": 3.14,
            "untitledSingleSelectEnum": "Monica",
            "untitledMultipleSelectEnum": ["Guitar"],
            "titledSingleSelectEnum": "hero-1",
            "titledMultipleSelectEnum": ["fish-1"],
            "legacyTitledEnum": "pet-1",
        }})
    );
    let requests = requests_of(&client, "elicitation/create");
    assert!(
        requests.iter().all(|request| request.answered),
        "{requests:#?}"
    );
}

async fn answers_roots_and_announces_changes(transport: Transport) {
    let client = connect_answering(transport).await;
    // The server asks by itself, 350 ms after `initialized`, and logs what it got.
    let log = wait_for_log(&client, "Roots updated: 1 root(s) received from client").await;
    assert_eq!(log.params["logger"], "everything-server");
    assert_eq!(log.params["level"], "info");
    let requests = requests_of(&client, "roots/list");
    assert_eq!(requests.len(), 1, "{requests:#?}");
    assert!(requests[0].answered);
    client
        .call_tool("get-roots-list", json!({}))
        .await
        .unwrap()
        .assert()
        .is_success()
        .text_matches(r"^Current MCP Roots \(1 total\):\n\n1\. A\n   URI: file:///tmp/a\n\nNote: ");

    // New roots: `notifications/roots/list_changed` makes the server ask again.
    client
        .set_roots([
            Root::new("file:///tmp/a").with_name("A"),
            Root::new("file:///tmp/b"),
        ])
        .await
        .unwrap();
    wait_for_log(&client, "Roots updated: 2 root(s) received from client").await;
    assert_eq!(requests_of(&client, "roots/list").len(), 2);
    client
        .call_tool("get-roots-list", json!({}))
        .await
        .unwrap()
        .assert()
        .text_contains(
            "Current MCP Roots (2 total):\n\n1. A\n   URI: file:///tmp/a\n\n2. Unnamed Root\n   URI: file:///tmp/b\n\n",
        );
    assert_eq!(client.unanswered_server_requests(), []);
}

// ----- helpers ---------------------------------------------------------------------------------

/// Calls a `toggle-*` tool and checks which way it went; returns its text.
async fn toggle(client: &McpClient, tool: &str, expected_start: &str) -> String {
    let result = client.call_tool(tool, json!({})).await.unwrap();
    result.assert().is_success().text_contains(expected_start);
    let text = result.text();
    assert!(text.starts_with(expected_start), "{tool}: {text}");
    text
}

/// Waits for the log message whose data is exactly `data`.
async fn wait_for_log(client: &McpClient, data: &str) -> Notification {
    client
        .wait_for_notification_matching(|n| {
            n.method == "notifications/message" && n.params["data"] == data
        })
        .await
        .unwrap_or_else(|e| {
            panic!(
                "no log message `{data}`: {e}\n{:#?}",
                client.notifications()
            )
        })
}

/// Waits for a log message whose data contains `needle`.
async fn wait_for_log_containing(client: &McpClient, needle: &str) -> Notification {
    client
        .wait_for_notification_matching(|n| {
            n.method == "notifications/message"
                && n.params["data"]
                    .as_str()
                    .is_some_and(|d| d.contains(needle))
        })
        .await
        .unwrap_or_else(|e| {
            panic!(
                "no log message with `{needle}`: {e}\n{:#?}",
                client.notifications()
            )
        })
}

fn requests_of(client: &McpClient, method: &str) -> Vec<ServerRequest> {
    client
        .server_requests()
        .into_iter()
        .filter(|r| r.method == method)
        .collect()
}

/// Resource contents as read: text, or a blob already decoded from base64.
#[derive(Debug)]
enum Content {
    Text(String),
    Blob(String),
}

impl Content {
    fn as_str(&self) -> &str {
        match self {
            Content::Text(text) | Content::Blob(text) => text,
        }
    }
}

fn resource_contents(contents: &ResourceContents) -> (&str, Content) {
    match contents {
        ResourceContents::TextResourceContents { uri, text, .. } => {
            (uri, Content::Text(text.clone()))
        }
        ResourceContents::BlobResourceContents { uri, blob, .. } => (
            uri,
            Content::Blob(String::from_utf8(base64_decode(blob)).expect("UTF-8 in the blob")),
        ),
        other => panic!("unknown resource contents: {other:?}"),
    }
}

/// The URI and contents of an embedded resource block.
fn embedded(block: &ContentBlock) -> (&str, Content) {
    let resource = block
        .as_resource()
        .unwrap_or_else(|| panic!("an embedded resource: {block:?}"));
    resource_contents(&resource.resource)
}

/// Dynamic resources end with the time they were read (`8:48:11 AM`): check the rest.
fn assert_volatile(content: &Content, prefix: &str) {
    let text = content.as_str();
    let time = text
        .strip_prefix(prefix)
        .unwrap_or_else(|| panic!("expected `{prefix}<time>`, got `{text}`"));
    assert!(
        time.contains(':') && time.len() <= 12,
        "a time of day: `{time}`"
    );
}

fn be_u32(bytes: &[u8]) -> u32 {
    u32::from_be_bytes(bytes.try_into().expect("4 bytes"))
}

/// Standard base64 with padding (the tests crate has no base64 dependency).
fn base64_decode(text: &str) -> Vec<u8> {
    const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = Vec::with_capacity(text.len() * 3 / 4);
    let (mut bits, mut count) = (0u32, 0);
    for byte in text.bytes().take_while(|b| *b != b'=') {
        let value = ALPHABET
            .iter()
            .position(|a| *a == byte)
            .unwrap_or_else(|| panic!("not base64: {text}"));
        bits = (bits << 6) | value as u32;
        count += 6;
        if count >= 8 {
            count -= 8;
            out.push((bits >> count) as u8);
            bits &= (1 << count) - 1;
        }
    }
    out
}
