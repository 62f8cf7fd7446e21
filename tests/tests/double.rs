//! The MCP double (`mcp_assured::double`) as a real client sees it: our client (rmcp's)
//! over streamable HTTP and, through `mcp-assured relay`, over stdio, on both protocol
//! revisions. What it lists, what it answers, what it records, what it expects, and each
//! failure it plays on cue.

use std::{panic::AssertUnwindSafe, time::Duration};

use mcp_assured::{
    ClientBuilder, Error, McpAssured, McpClient,
    double::{
        Mock, MockServer, Reply,
        matchers::{arguments, arguments_include, bearer_token, method, prompt, resource, tool},
    },
};
use mcp_assured_tests::{
    sdk_clients::{self, Reach, SdkClient},
    workspace_binary,
};
use rmcp::model::{ElicitResult, ElicitationAction};
use serde_json::{Value, json};

/// How a client reaches the double.
#[derive(Debug, Clone, Copy)]
enum Face {
    Http,
    Sse,
    Stdio,
}

fn builder(double: &MockServer, face: Face) -> ClientBuilder {
    let builder = McpAssured::client().timeout(Duration::from_secs(10));
    match face {
        Face::Http => builder.base_uri(double.uri()),
        Face::Sse => builder.base_uri(double.sse_uri()),
        Face::Stdio => builder
            .command(workspace_binary("mcp-assured-cli", "mcp-assured"))
            .args(["relay".to_owned(), double.relay_address().to_string()]),
    }
}

async fn connect(double: &MockServer, face: Face) -> McpClient {
    builder(double, face)
        .build()
        .await
        .expect("the double accepts a client")
}

async fn a_mocked_tool_is_listed_called_and_recorded(face: Face, revision: &str) {
    let double = MockServer::start().await;
    Mock::given(tool("search"))
        .and(arguments_include(json!({"query": "rust"})))
        .respond_with(Reply::structured(json!({"hits": 3})))
        .expect(1)
        .mount(&double)
        .await;
    let client = builder(&double, face)
        .protocol_version(revision)
        .build()
        .await
        .expect("the double serves this revision");
    let tools = client.list_tools().await.unwrap();
    let names: Vec<&str> = tools.iter().map(|tool| tool.name.as_ref()).collect();
    assert_eq!(names, ["search"]);
    let result = client
        .call_tool("search", json!({"query": "rust", "limit": 2}))
        .await
        .unwrap();
    assert_eq!(result.structured_content, Some(json!({"hits": 3})));
    let calls: Vec<String> = double
        .received_requests()
        .iter()
        .filter(|request| request.method == "tools/call")
        .map(ToString::to_string)
        .collect();
    assert_eq!(calls, [r#"tools/call search {"limit":2,"query":"rust"}"#]);
    client.close().await.unwrap();
    double.verify();
}

#[tokio::test]
async fn over_http_on_2025_11_25() {
    a_mocked_tool_is_listed_called_and_recorded(Face::Http, "2025-11-25").await;
}

#[tokio::test]
async fn over_http_on_2026_07_28() {
    a_mocked_tool_is_listed_called_and_recorded(Face::Http, "2026-07-28").await;
}

#[tokio::test]
async fn over_sse_on_2025_11_25() {
    a_mocked_tool_is_listed_called_and_recorded(Face::Sse, "2025-11-25").await;
}

#[tokio::test]
async fn over_stdio_on_2025_11_25() {
    a_mocked_tool_is_listed_called_and_recorded(Face::Stdio, "2025-11-25").await;
}

#[tokio::test]
async fn over_stdio_on_2026_07_28() {
    a_mocked_tool_is_listed_called_and_recorded(Face::Stdio, "2026-07-28").await;
}

#[tokio::test]
async fn the_first_matching_mock_answers_and_an_unmatched_call_is_refused_by_name() {
    let double = MockServer::start().await;
    Mock::given(tool("divide"))
        .and(arguments(json!({"a": 1, "b": 0})))
        .respond_with(Reply::tool_error("division by zero"))
        .mount(&double)
        .await;
    Mock::given(tool("divide"))
        .respond_with(|request: &mcp_assured::double::McpRequest| {
            let arguments = request.arguments();
            let quotient = arguments["a"].as_f64().unwrap() / arguments["b"].as_f64().unwrap();
            Reply::text(quotient.to_string())
        })
        .mount(&double)
        .await;
    let client = connect(&double, Face::Http).await;
    let refused = client
        .call_tool("divide", json!({"a": 1, "b": 0}))
        .await
        .unwrap();
    assert_eq!(refused.is_error, Some(true));
    assert_eq!(refused.text(), "division by zero");
    let divided = client
        .call_tool("divide", json!({"a": 6, "b": 3}))
        .await
        .unwrap();
    assert_eq!(divided.text(), "2");
    let error = client
        .call_tool("multiply", json!({"a": 2}))
        .await
        .unwrap_err();
    match error {
        Error::JsonRpc { code, message, .. } => {
            assert_eq!(code, -32602);
            assert!(
                message.contains(r#"tools/call multiply {"a":2}"#),
                "{message}"
            );
        }
        other => panic!("expected a JSON-RPC error, got {other:?}"),
    }
    let unmatched: Vec<String> = double
        .unmatched_requests()
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(unmatched, [r#"tools/call multiply {"a":2}"#]);
}

#[tokio::test]
async fn an_unmet_expectation_names_the_mock_and_lists_what_came() {
    let double = MockServer::start().await;
    Mock::given(tool("search"))
        .respond_with(Reply::text("found"))
        .named("the search")
        .expect(2)
        .mount(&double)
        .await;
    let client = connect(&double, Face::Http).await;
    client.call_tool("search", json!({"q": "a"})).await.unwrap();
    client
        .call_tool("fetch", json!({"url": "x"}))
        .await
        .unwrap_err();
    let panic = std::panic::catch_unwind(AssertUnwindSafe(|| double.verify()))
        .expect_err("two were expected, one came");
    let message = panic.downcast_ref::<String>().unwrap();
    assert!(
        message.contains(r#"the search (tool "search") expected exactly 2 requests, got 1"#),
        "{message}"
    );
    assert!(
        message.contains(r#"tools/call fetch {"url":"x"} (no mock matched)"#),
        "{message}"
    );
    // Met now: dropping the double at the end of the test does not panic.
    client.call_tool("search", json!({})).await.unwrap();
    double.verify();
}

#[tokio::test]
async fn a_scoped_mock_is_checked_when_its_guard_drops() {
    let double = MockServer::start().await;
    let client = connect(&double, Face::Http).await;
    {
        let guard = Mock::given(tool("ping_upstream"))
            .respond_with(Reply::text("pong"))
            .expect(1)
            .mount_as_scoped(&double)
            .await;
        client.call_tool("ping_upstream", json!({})).await.unwrap();
        assert_eq!(guard.received_requests().len(), 1);
    }
    // Gone with its guard.
    client
        .call_tool("ping_upstream", json!({}))
        .await
        .unwrap_err();
}

#[tokio::test]
async fn errors_delays_and_hangs_on_cue() {
    let double = MockServer::start().await;
    Mock::given(tool("broken"))
        .respond_with(Reply::error_with_data(
            -32603,
            "upstream exploded",
            json!({"why": "test"}),
        ))
        .mount(&double)
        .await;
    Mock::given(tool("slow"))
        .respond_with(Reply::text("late").delay(Duration::from_millis(300)))
        .mount(&double)
        .await;
    Mock::given(tool("stuck"))
        .respond_with(Reply::hang())
        .mount(&double)
        .await;
    let client = connect(&double, Face::Http).await;
    match client.call_tool("broken", json!({})).await.unwrap_err() {
        Error::JsonRpc {
            code,
            message,
            data,
            ..
        } => {
            assert_eq!((code, message.as_str()), (-32603, "upstream exploded"));
            assert_eq!(data, Some(json!({"why": "test"})));
        }
        other => panic!("expected a JSON-RPC error, got {other:?}"),
    }
    let started = std::time::Instant::now();
    assert_eq!(
        client.call_tool("slow", json!({})).await.unwrap().text(),
        "late"
    );
    assert!(started.elapsed() >= Duration::from_millis(300));
    let impatient = client.with_timeout(Duration::from_millis(300));
    assert!(matches!(
        impatient.call_tool("stuck", json!({})).await.unwrap_err(),
        Error::Timeout { .. }
    ));
    // The double still serves after a hang.
    assert_eq!(
        client.call_tool("slow", json!({})).await.unwrap().text(),
        "late"
    );
}

async fn a_dropped_connection_fails_the_call_and_the_double_serves_the_next(face: Face) {
    let double = MockServer::start().await;
    Mock::given(tool("flaky"))
        .respond_with(Reply::drop_connection())
        .up_to_n_times(1)
        .mount(&double)
        .await;
    Mock::given(tool("flaky"))
        .respond_with(Reply::text("back"))
        .mount(&double)
        .await;
    let client = connect(&double, face).await;
    let error = client.call_tool("flaky", json!({})).await.unwrap_err();
    assert!(
        !matches!(error, Error::Timeout { .. }),
        "a dropped connection fails at once, not by timeout: {error:?}"
    );
    let again = client
        .reconnect()
        .await
        .expect("the double takes the client back");
    assert_eq!(
        again.call_tool("flaky", json!({})).await.unwrap().text(),
        "back"
    );
}

#[tokio::test]
async fn a_dropped_connection_over_http() {
    a_dropped_connection_fails_the_call_and_the_double_serves_the_next(Face::Http).await;
}

#[tokio::test]
async fn a_dropped_connection_over_stdio_ends_the_relay() {
    a_dropped_connection_fails_the_call_and_the_double_serves_the_next(Face::Stdio).await;
}

#[tokio::test]
async fn a_crash_stops_the_double() {
    let double = MockServer::start().await;
    Mock::given(tool("explode"))
        .respond_with(Reply::crash())
        .mount(&double)
        .await;
    let client = connect(&double, Face::Http).await;
    client.call_tool("explode", json!({})).await.unwrap_err();
    let refused = builder(&double, Face::Http)
        .startup_timeout(Duration::from_secs(2))
        .build()
        .await;
    assert!(refused.is_err(), "a crashed double accepts no one");
    let relayed = builder(&double, Face::Stdio)
        .startup_timeout(Duration::from_secs(5))
        .build()
        .await;
    assert!(relayed.is_err(), "nor does its relay");
}

#[tokio::test]
async fn progress_and_logs_come_before_the_answer() {
    let double = MockServer::start().await;
    Mock::given(tool("index"))
        .respond_with(
            Reply::text("indexed")
                .progress(1.0, Some(2.0))
                .progress_message(2.0, Some(2.0), "done")
                .log("info", json!("indexing")),
        )
        .mount(&double)
        .await;
    for face in [Face::Http, Face::Stdio] {
        let client = connect(&double, face).await;
        let pending = client.start_call_tool("index", json!({})).await.unwrap();
        let token = serde_json::to_value(pending.progress_token()).unwrap();
        let result = pending.result().await.unwrap();
        assert_eq!(result.text(), "indexed");
        // Progress rides on the request's own stream: both are in before the answer.
        let progress: Vec<f64> = client
            .progress_notifications()
            .iter()
            .filter(|progress| progress.progress_token == token)
            .map(|progress| progress.progress)
            .collect();
        assert_eq!(progress, [1.0, 2.0], "{face:?}");
        // A log message may take the session's stream over HTTP: it comes, not in order.
        let log = client
            .wait_for_notification("notifications/message")
            .await
            .unwrap();
        assert_eq!(log.params["data"], "indexing", "{face:?}");
    }
}

/// The expectations are checked when the last handle on the double is dropped, with a
/// panic that lists what came; a scoped mock's when its guard drops.
#[tokio::test]
async fn dropping_a_double_with_an_unmet_expectation_panics() {
    let double = MockServer::start().await;
    Mock::given(tool("never_called"))
        .respond_with(Reply::text("x"))
        .expect(1)
        .mount(&double)
        .await;
    let dropped = std::panic::catch_unwind(AssertUnwindSafe(move || drop(double)))
        .expect_err("an unmet expectation fails the test");
    let message = dropped.downcast_ref::<String>().unwrap();
    assert!(
        message.contains(r#"tool "never_called" expected exactly 1 request, got 0"#),
        "{message}"
    );
    assert!(message.contains("it received no request"), "{message}");

    let double = MockServer::start().await;
    let guard = Mock::given(tool("scoped"))
        .respond_with(Reply::text("x"))
        .expect(1)
        .mount_as_scoped(&double)
        .await;
    let dropped = std::panic::catch_unwind(AssertUnwindSafe(move || drop(guard)))
        .expect_err("the guard checks its mock");
    let message = dropped.downcast_ref::<String>().unwrap();
    assert!(message.contains(r#"tool "scoped""#), "{message}");
}

#[tokio::test]
async fn mounting_a_mock_that_names_a_new_tool_tells_the_open_sessions() {
    let double = MockServer::start().await;
    // 2026-07-28 sessions hear of changes through `subscriptions/listen` instead.
    let client = builder(&double, Face::Http)
        .protocol_version("2025-11-25")
        .build()
        .await
        .unwrap();
    assert!(client.list_tools().await.unwrap().is_empty());
    Mock::given(tool("late_arrival"))
        .respond_with(Reply::text("hi"))
        .mount(&double)
        .await;
    client
        .wait_for_notification("notifications/tools/list_changed")
        .await
        .unwrap();
    assert_eq!(client.list_tools().await.unwrap().len(), 1);
}

#[tokio::test]
async fn declared_surface_resources_and_prompts() {
    let double = MockServer::builder()
        .name("upstream-notes")
        .tool(json!({
            "name": "add_note",
            "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]},
        }))
        .resource_template(json!({"uriTemplate": "note://{id}", "name": "note"}))
        .start()
        .await;
    Mock::given(resource("note://1"))
        .respond_with(Reply::resource_text("note://1", "first"))
        .mount(&double)
        .await;
    Mock::given(prompt("summarize"))
        .respond_with(Reply::prompt_text("Summarize the notes"))
        .mount(&double)
        .await;
    let client = connect(&double, Face::Http).await;
    let tools = client.list_tools_json().await.unwrap();
    assert_eq!(tools[0]["inputSchema"]["required"], json!(["text"]));
    assert_eq!(client.list_resources().await.unwrap().len(), 1);
    assert_eq!(client.list_resource_templates().await.unwrap().len(), 1);
    let read = client.read_resource("note://1").await.unwrap();
    assert_eq!(read.json()["contents"][0]["text"], "first");
    let prompt = client.get_prompt("summarize", json!({})).await.unwrap();
    assert_eq!(
        prompt.json()["messages"][0]["content"]["text"],
        "Summarize the notes"
    );
    let error = client.read_resource("note://2").await.unwrap_err();
    assert!(matches!(error, Error::JsonRpc { .. }), "{error:?}");
    let info = client.server_info();
    assert_eq!(info.name, "upstream-notes");
}

#[tokio::test]
async fn credentials_are_matched_and_never_printed() {
    let double = MockServer::start().await;
    Mock::given(tool("private"))
        .and(bearer_token("s3cret-token"))
        .respond_with(Reply::text("welcome"))
        .expect(2)
        .mount(&double)
        .await;
    let with_token = McpAssured::client()
        .base_uri(double.uri())
        .bearer_token("s3cret-token")
        .build()
        .await
        .unwrap();
    assert_eq!(
        with_token
            .call_tool("private", json!({}))
            .await
            .unwrap()
            .text(),
        "welcome"
    );
    // Over HTTP+SSE the headers of each message's POST are the ones matched.
    let over_sse = McpAssured::client()
        .base_uri(double.sse_uri())
        .bearer_token("s3cret-token")
        .build()
        .await
        .unwrap();
    assert_eq!(
        over_sse
            .call_tool("private", json!({}))
            .await
            .unwrap()
            .text(),
        "welcome"
    );
    let without = connect(&double, Face::Http).await;
    let refused = without.call_tool("private", json!({})).await.unwrap_err();
    assert!(!refused.to_string().contains("s3cret-token"));
    let listing = format!("{:?}", double.received_requests());
    assert!(!listing.contains("s3cret-token"), "{listing}");
    assert!(
        listing.contains(r#"("authorization", "<redacted>")"#),
        "{listing}"
    );
    let described = double
        .received_requests()
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join("\n");
    assert!(!described.contains("s3cret-token"), "{described}");
}

#[tokio::test]
async fn the_client_is_asked_and_its_answer_kept() {
    let double = MockServer::start().await;
    Mock::given(tool("confirm"))
        .respond_with(Reply::after_asking(
            "elicitation/create",
            json!({
                "mode": "form",
                "message": "Proceed?",
                "requestedSchema": {"type": "object", "properties": {"ok": {"type": "boolean"}}},
            }),
            |answer: Result<Value, String>| match answer {
                Ok(answer) if answer["action"] == "accept" => Reply::text("confirmed"),
                other => Reply::tool_error(format!("not confirmed: {other:?}")),
            },
        ))
        .mount(&double)
        .await;
    // 2026-07-28 forbids server→client requests: the client's answer there is the refusal.
    let client = McpAssured::client()
        .base_uri(double.uri())
        .protocol_version("2025-11-25")
        .on_elicitation(|_params| {
            ElicitResult::new(ElicitationAction::Accept).with_content(json!({"ok": true}))
        })
        .build()
        .await
        .unwrap();
    let result = client.call_tool("confirm", json!({})).await.unwrap();
    assert_eq!(result.text(), "confirmed");
    let answers = double.client_answers();
    assert_eq!(answers.len(), 1);
    assert_eq!(answers[0].method, "elicitation/create");
    assert_eq!(
        answers[0].answer.as_ref().unwrap()["content"],
        json!({"ok": true})
    );
}

#[tokio::test]
async fn lists_can_be_mocked_too() {
    let double = MockServer::start().await;
    Mock::given(method("tools/list"))
        .respond_with(Reply::error(-32603, "listing is down"))
        .mount(&double)
        .await;
    let client = connect(&double, Face::Http).await;
    assert!(client.list_tools().await.is_err());
}

/// The double is a server like any other: our protocol checks pass on it, on both
/// revisions, over both faces.
async fn the_double_passes_the_protocol_checks(face: Face, revision: &str) {
    let double = MockServer::builder()
        .tool(json!({
            "name": "search",
            "description": "Searches the notes.",
            "inputSchema": {"type": "object", "properties": {"query": {"type": "string"}}},
        }))
        .resource(json!({"uri": "note://1", "name": "first note", "mimeType": "text/plain"}))
        .start()
        .await;
    Mock::given(tool("search"))
        .respond_with(Reply::text("found"))
        .mount(&double)
        .await;
    Mock::given(resource("note://1"))
        .respond_with(Reply::resource_text("note://1", "first"))
        .mount(&double)
        .await;
    let client = builder(&double, face)
        .protocol_version(revision)
        .build()
        .await
        .unwrap();
    let report = client.check().await;
    assert_eq!(report.failed(), 0, "{report}");
    assert!(report.passed() > 5, "{report}");
    // Every answer the double gave is valid on the revision: what the SDKs' clients accept.
    assert_eq!(
        report.entry("wire.schema").map(|entry| entry.status),
        Some(mcp_assured::report::Status::Passed),
        "{report}"
    );
}

#[tokio::test]
async fn passes_the_checks_over_http_on_2025_11_25() {
    the_double_passes_the_protocol_checks(Face::Http, "2025-11-25").await;
}

#[tokio::test]
async fn passes_the_checks_over_http_on_2026_07_28() {
    the_double_passes_the_protocol_checks(Face::Http, "2026-07-28").await;
}

#[tokio::test]
async fn passes_the_checks_over_sse_on_2025_11_25() {
    the_double_passes_the_protocol_checks(Face::Sse, "2025-11-25").await;
}

#[tokio::test]
async fn passes_the_checks_over_stdio_on_2025_11_25() {
    the_double_passes_the_protocol_checks(Face::Stdio, "2025-11-25").await;
}

#[tokio::test]
async fn passes_the_checks_over_stdio_on_2026_07_28() {
    the_double_passes_the_protocol_checks(Face::Stdio, "2026-07-28").await;
}

/// Has an official SDK client (`mcp_assured_tests::sdk_clients`) reach the double over
/// `face` (stdio through `mcp-assured relay`) and run [`double_session`].
async fn sdk_drives(double: &MockServer, client: SdkClient, face: Face) -> Value {
    let relay = [
        workspace_binary("mcp-assured-cli", "mcp-assured").into_os_string(),
        "relay".into(),
        double.relay_address().to_string().into(),
    ];
    let (uri, sse_uri) = (double.uri(), double.sse_uri());
    let reach = match face {
        Face::Http => Reach::Http(&uri),
        Face::Sse => Reach::Sse(&sse_uri),
        Face::Stdio => Reach::Stdio(&relay),
    };
    sdk_clients::drive(client, &double_session(), reach).await
}

/// Lists the tools, calls `search` with {"query": "rust"} and `missing` (which no mock
/// answers), lists resources and prompts, reads `file:///notes.txt`, gets the prompt
/// `greet`.
fn double_session() -> Value {
    json!([
        ["list_tools"],
        ["call", "search", {"query": "rust"}],
        ["call", "missing", {}],
        ["list_resources"],
        ["read", "file:///notes.txt"],
        ["list_prompts"],
        ["prompt", "greet", {"name": "Ada"}],
    ])
}

/// A double with `search` (expected once), a resource and a prompt mocked.
async fn searching_double() -> MockServer {
    let double = MockServer::builder().name("python-sees-me").start().await;
    Mock::given(tool("search"))
        .and(arguments(json!({"query": "rust"})))
        .respond_with(Reply::structured(json!({"hits": 3})))
        .expect(1)
        .mount(&double)
        .await;
    Mock::given(resource("file:///notes.txt"))
        .respond_with(Reply::resource_text("file:///notes.txt", "remember"))
        .mount(&double)
        .await;
    Mock::given(prompt("greet"))
        .respond_with(Reply::prompt_text("Hello, Ada"))
        .mount(&double)
        .await;
    double
}

/// What an SDK client driven through [`double_session`] got: the mocks' answers, on the
/// revision it negotiates, none refused by its schemas.
#[track_caller]
fn assert_served_everything(report: &Value, client: SdkClient) {
    assert_eq!(report["server"], "python-sees-me", "{report}");
    assert_eq!(report["protocol"], client.negotiates(), "{report}");
    let steps = report["steps"].as_array().unwrap();
    assert_eq!(steps[0], json!(["search"]), "{report}");
    assert_eq!(
        steps[1]["structuredContent"],
        json!({"hits": 3}),
        "{report}"
    );
    let missing = steps[2]["error"].as_str().unwrap_or_default();
    assert!(
        missing.contains("no mock of the MCP double matches"),
        "{report}"
    );
    assert_eq!(steps[3], json!(["file:///notes.txt"]), "{report}");
    assert_eq!(steps[4]["contents"][0]["text"], "remember", "{report}");
    assert_eq!(steps[5], json!(["greet"]), "{report}");
    assert_eq!(
        steps[6]["messages"][0]["content"]["text"], "Hello, Ada",
        "{report}"
    );
}

/// An official SDK client over `face`: a real client that is not ours. The Python SDK's
/// documented `mcp.Client` lands on 2026-07-28 and validates every result against that
/// revision's types, so a result without `resultType` fails it (4 of 6 of a user's tests
/// did, before the double added it).
async fn the_sdk_client_is_served(client: SdkClient, face: Face) {
    let double = searching_double().await;
    let report = sdk_drives(&double, client, face).await;
    assert_served_everything(&report, client);
}

#[tokio::test]
async fn the_python_sdks_client_over_http() {
    the_sdk_client_is_served(SdkClient::PythonSession, Face::Http).await;
}

#[tokio::test]
async fn the_python_sdks_client_over_sse() {
    the_sdk_client_is_served(SdkClient::PythonSession, Face::Sse).await;
}

#[tokio::test]
async fn the_python_sdks_client_over_stdio() {
    the_sdk_client_is_served(SdkClient::PythonSession, Face::Stdio).await;
}

#[tokio::test]
async fn the_python_sdks_documented_client_over_http() {
    the_sdk_client_is_served(SdkClient::PythonClient, Face::Http).await;
}

#[tokio::test]
async fn the_python_sdks_documented_client_over_stdio() {
    the_sdk_client_is_served(SdkClient::PythonClient, Face::Stdio).await;
}

#[tokio::test]
async fn the_typescript_sdks_client_over_http() {
    the_sdk_client_is_served(SdkClient::TypeScript, Face::Http).await;
}

#[tokio::test]
async fn the_typescript_sdks_client_over_stdio() {
    the_sdk_client_is_served(SdkClient::TypeScript, Face::Stdio).await;
}
