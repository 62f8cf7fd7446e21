//! `record_to` against third-party servers, on every transport they speak: server-everything
//! (progress, sampling, roots, resources, prompts, an error) and the Python SDK peer (tools,
//! a tool error, a resource, a prompt, JSON-RPC errors); the cassette read back, secrets
//! redacted, and the lookup a replay answers with.

#![allow(deprecated)] // sampling and roots are SEP-2577-deprecated, and recorded here

use std::path::PathBuf;

use mcp_assured::{
    McpAssured,
    cassette::{Cassette, Matching},
    model::Root,
};
use mcp_assured_tests::{Transport, connect, for_each_transport, peers, server};
use serde_json::{Value, json};

/// A fresh path for a cassette of this test.
fn cassette_path(test: &str, transport: Transport) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("mcp-assured-cassettes-{}", std::process::id()));
    let path = dir.join(format!("{test}-{transport:?}.json"));
    let _ = std::fs::remove_file(&path);
    path
}

fn text(result: &Option<Value>) -> &str {
    result.as_ref().expect("a result")["content"][0]["text"]
        .as_str()
        .expect("a text block")
}

/// The bearer token sent over HTTP; it must never reach the cassette.
const HEADER_SECRET: &str = "tok-header-5f0c";
/// A secret in a tool's arguments, recorded redacted.
const ARGUMENT_SECRET: &str = "tok-argument-91ab";

async fn records_server_everything(transport: Transport) {
    let path = cassette_path("everything", transport);
    let recorded = path.clone();
    let client = connect::everything(transport, |builder| {
        let builder = builder
            .record_to(recorded)
            .on_sampling(|request| connect::sampled(request, |asked| format!("echo: {asked}")))
            .roots([Root::new("file:///tmp/recorded")]);
        match transport {
            Transport::Stdio => builder,
            _ => builder.bearer_token(HEADER_SECRET),
        }
    })
    .await;
    client.list_tools().await.unwrap();
    let steps = json!({"duration": 0.3, "steps": 3});
    client
        .call_tool("trigger-long-running-operation", steps)
        .await
        .unwrap();
    let prompt = json!({"prompt": "hello", "maxTokens": 5});
    client
        .call_tool("trigger-sampling-request", prompt)
        .await
        .unwrap();
    let secret = json!({"message": "hi", "token": ARGUMENT_SECRET});
    client.call_tool("echo", secret).await.unwrap();
    let doc = "demo://resource/static/document/architecture.md";
    client.read_resource(doc).await.unwrap();
    client
        .get_prompt("args-prompt", json!({"city": "Paris"}))
        .await
        .unwrap();
    client.get_prompt("nope", json!({})).await.unwrap_err();
    if transport == Transport::Stdio {
        // It asks for the roots 350 ms after `initialize`, and logs what it got.
        let roots_updated = |n: &mcp_assured::Notification| {
            n.params["data"]
                .as_str()
                .is_some_and(|data| data.starts_with("Roots updated"))
        };
        client
            .wait_for_notification_matching(roots_updated)
            .await
            .unwrap();
    }
    client.client.close().await.unwrap();

    let written = std::fs::read_to_string(&path).unwrap();
    for secret in [HEADER_SECRET, ARGUMENT_SECRET] {
        assert!(
            !written.contains(secret),
            "{secret} is in the cassette:\n{written}"
        );
    }
    let cassette = Cassette::load(&path).unwrap();
    assert_eq!(
        cassette.server.server_info["name"],
        "mcp-servers/everything"
    );
    assert_eq!(cassette.server.protocol_version, "2025-11-25");
    assert!(cassette.server.capabilities["logging"].is_object());
    assert!(
        cassette
            .server
            .instructions
            .as_deref()
            .unwrap_or_default()
            .starts_with("# Everything Server")
    );

    let long = cassette
        .find("tools/call", Some("trigger-long-running-operation"))
        .unwrap();
    assert!(text(&long.result).starts_with("Long running operation completed."));
    let progress: Vec<&Value> = long
        .notifications
        .iter()
        .filter(|n| n.method == "notifications/progress")
        .map(|n| &n.params["progress"])
        .collect();
    assert_eq!(progress, [&json!(1), &json!(2), &json!(3)], "{long:#?}");
    assert!(long.elapsed_ms.unwrap() >= 250.0, "{long:#?}");

    let sampling = cassette
        .find("tools/call", Some("trigger-sampling-request"))
        .unwrap();
    let asked = sampling
        .server_requests
        .iter()
        .find(|r| r.method == "sampling/createMessage")
        .unwrap_or_else(|| panic!("no sampling request in {sampling:#?}"));
    assert_eq!(asked.params["maxTokens"], 5);
    assert_eq!(asked.result.as_ref().unwrap()["model"], "test-model");
    assert!(text(&sampling.result).starts_with("LLM sampling result:"));

    let echo = cassette.find("tools/call", Some("echo")).unwrap();
    assert_eq!(
        echo.params["arguments"],
        json!({"message": "hi", "token": "<redacted>"})
    );
    assert_eq!(text(&echo.result), "Echo: hi");

    let read = cassette.find("resources/read", Some(doc)).unwrap();
    let contents = &read.result.as_ref().unwrap()["contents"][0];
    assert_eq!(contents["mimeType"], "text/markdown");
    let prompt = cassette.find("prompts/get", Some("args-prompt")).unwrap();
    assert_eq!(
        prompt.result.as_ref().unwrap()["messages"][0]["content"]["text"],
        "What's weather in Paris?"
    );
    let nope = cassette.find("prompts/get", Some("nope")).unwrap();
    let error = nope.error.as_ref().expect("a JSON-RPC error");
    assert_eq!(error.code, -32602);
    assert!(error.message.contains("Prompt nope not found"), "{error:?}");

    if transport == Transport::Stdio {
        // Recorded where it came: while a request was in flight, or between requests.
        let roots = cassette
            .server_requests
            .iter()
            .chain(
                cassette
                    .interactions
                    .iter()
                    .flat_map(|i| &i.server_requests),
            )
            .find(|r| r.method == "roots/list")
            .unwrap_or_else(|| panic!("no roots/list in {written}"));
        assert_eq!(
            roots.result.as_ref().unwrap()["roots"][0]["uri"],
            "file:///tmp/recorded"
        );
    }

    // What a replay of this cassette answers.
    let again = json!({"name": "echo", "arguments": {"message": "hi", "token": "anything"}});
    let answer = cassette
        .answer("tools/call", &again, &Matching::new())
        .unwrap();
    assert_eq!(text(&answer.result), "Echo: hi");
}

async fn records_the_python_sdk_server(transport: Transport) {
    let path = cassette_path("python", transport);
    let http = match transport {
        Transport::Stdio => None,
        _ => Some(server::python(transport).await),
    };
    let builder = match &http {
        Some(server) => McpAssured::client().base_uri(server.url().unwrap()),
        None => McpAssured::client()
            .command(peers::python())
            .arg(peers::python_server_script()),
    };
    let client = builder
        .protocol_version("2025-11-25")
        .record_to(&path)
        .build()
        .await
        .unwrap();
    client.list_tools().await.unwrap();
    client
        .call_tool("add", json!({"a": 2, "b": 3}))
        .await
        .unwrap();
    let divided = client
        .call_tool("divide", json!({"a": 1, "b": 0}))
        .await
        .unwrap();
    assert_eq!(divided.is_error, Some(true));
    client.read_resource("python://info").await.unwrap();
    client.read_resource("python://nope").await.unwrap_err();
    client
        .get_prompt("summarize", json!({"text": "long text"}))
        .await
        .unwrap();
    client
        .request("logging/setLevel", json!({"level": "debug"}))
        .await
        .unwrap_err();
    client.close().await.unwrap();

    let cassette = Cassette::load(&path).unwrap();
    assert_eq!(
        cassette.server.server_info["name"],
        "mcp-assured-python-peer"
    );
    assert_eq!(cassette.server.protocol_version, "2025-11-25");
    assert_eq!(
        cassette.methods(),
        [
            "tools/list",
            "tools/call",
            "tools/call",
            "resources/read",
            "resources/read",
            "prompts/get",
            "logging/setLevel"
        ]
    );
    assert!(cassette.interactions.iter().all(|i| i.is_answered()));
    let tools = &cassette.interactions[0].result.as_ref().unwrap()["tools"];
    assert_eq!(tools[0]["name"], "echo");
    let add = cassette.find("tools/call", Some("add")).unwrap();
    assert_eq!(
        add.result.as_ref().unwrap()["structuredContent"],
        json!({"sum": 5})
    );
    let divide = cassette.find("tools/call", Some("divide")).unwrap();
    assert_eq!(divide.result.as_ref().unwrap()["isError"], true);
    assert!(text(&divide.result).contains("division by zero"));
    let info = cassette
        .find("resources/read", Some("python://info"))
        .unwrap();
    assert!(
        info.result.as_ref().unwrap()["contents"][0]["text"]
            .as_str()
            .unwrap()
            .starts_with("mcp-assured Python peer on Python")
    );
    let nope = cassette
        .find("resources/read", Some("python://nope"))
        .unwrap();
    let error = nope.error.as_ref().unwrap();
    assert_eq!(
        (error.code, error.message.as_str()),
        (-32602, "Unknown resource: python://nope")
    );
    assert_eq!(error.data, Some(json!({"uri": "python://nope"})));
    let level = cassette.find("logging/setLevel", None).unwrap();
    assert_eq!(level.error.as_ref().unwrap().code, -32601);

    // The lookup a replay answers with: the recorded answer, or the closest miss.
    let add = json!({"name": "add", "arguments": {"a": 2, "b": 3}});
    let answer = cassette
        .answer("tools/call", &add, &Matching::new())
        .unwrap();
    assert_eq!(
        answer.result.as_ref().unwrap()["structuredContent"]["sum"],
        5
    );
    let other = json!({"name": "add", "arguments": {"a": 2, "b": 4}});
    let miss = cassette
        .answer("tools/call", &other, &Matching::new())
        .unwrap_err();
    let closest = miss.closest.as_ref().unwrap();
    assert_eq!((closest.index, closest.method.as_str()), (1, "tools/call"));
    assert_eq!(closest.differences, ["/arguments/b: recorded 3, asked 4"]);
}

for_each_transport!(stdio, streamable_http, sse => records_server_everything);

mod python {
    use super::*;

    for_each_transport!(stdio, streamable_http => records_the_python_sdk_server);
}
