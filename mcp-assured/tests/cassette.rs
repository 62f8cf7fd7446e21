//! Cassettes recorded from the example server (an rmcp server, in this process): what
//! `record_to` writes, secrets redacted, the file readable while the session goes on and
//! after a client that was never closed, the lookup a replay answers with, and
//! `ClientBuilder::proxy` between an rmcp client and the server.

use std::{
    path::{Path, PathBuf},
    time::Duration,
};

use mcp_assured::{
    Error, McpAssured, McpClient,
    cassette::{Cassette, Matching},
    model::{CallToolRequestParams, Role},
    rmcp::ServiceExt,
};
use mcp_assured_examples::ExampleServer;
use serde_json::{Value, json};

/// A fresh path for a cassette of this test.
fn cassette_path(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("mcp-assured-cassette-{}", std::process::id()));
    let path = dir.join(format!("{test}.json"));
    let _ = std::fs::remove_file(&path);
    path
}

/// The cassette at `path` once it holds `count` answered interactions, within 5 s.
async fn eventually_answered(path: &Path, count: usize) -> Cassette {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(5);
    loop {
        let cassette = Cassette::load(path).unwrap();
        let answered = cassette
            .interactions
            .iter()
            .filter(|i| i.is_answered())
            .count();
        if answered >= count {
            return cassette;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "{answered} of {count} interactions answered in {}",
            serde_json::to_string_pretty(&cassette).unwrap()
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

/// A client of the example server in this process, recording into a fresh cassette for
/// `test`.
async fn recorded(test: &str) -> (McpClient, PathBuf) {
    let path = cassette_path(test);
    let client = McpAssured::client()
        .service(ExampleServer::new())
        .record_to(&path)
        .build()
        .await
        .unwrap();
    (client, path)
}

/// The text of a sampling message's content: one block, or the first of a list.
fn text_of(content: &Value) -> &Value {
    content.get("text").unwrap_or(&content[0]["text"])
}

#[allow(deprecated)] // sampling is SEP-2577-deprecated, and recorded
fn sampled(text: &str) -> mcp_assured::model::CreateMessageResult {
    use mcp_assured::model::{CreateMessageResult, SamplingMessage};
    CreateMessageResult::new(SamplingMessage::assistant_text(text), "test-model".into())
}

#[tokio::test]
async fn records_every_exchange_of_a_session() {
    let path = cassette_path("every_exchange");
    // The last revision with requests of the server's (2026-07-28 has none).
    let client = McpAssured::client()
        .service(ExampleServer::new())
        .protocol_version("2025-11-25")
        .on_sampling(|_| sampled("a haiku"))
        .record_to(&path)
        .build()
        .await
        .unwrap();
    client.list_tools().await.unwrap();
    client
        .call_tool("progress", json!({"steps": 3, "delay_ms": 1}))
        .await
        .unwrap();
    client
        .call_tool("sample", json!({"prompt": "write"}))
        .await
        .unwrap();
    client
        .read_resource("example://static/readme")
        .await
        .unwrap();
    client
        .get_prompt("greet", json!({"name": "Ada"}))
        .await
        .unwrap();
    let missing = client.read_resource("example://nope").await.unwrap_err();
    assert!(matches!(missing, Error::JsonRpc { .. }), "{missing}");
    client.close().await.unwrap();

    let cassette = Cassette::load(&path).unwrap();
    assert_eq!(cassette.cassette, 1);
    assert!(
        chrono::DateTime::parse_from_rfc3339(&cassette.recorded).is_ok(),
        "{}",
        cassette.recorded
    );
    assert_eq!(cassette.server.server_info["name"], "mcp-assured-example");
    assert_eq!(cassette.server.protocol_version, "2025-11-25");
    assert!(cassette.server.capabilities.get("tools").is_some());
    assert_eq!(
        cassette.methods(),
        [
            "tools/list",
            "tools/call",
            "tools/call",
            "resources/read",
            "prompts/get",
            "resources/read"
        ]
    );

    let listed = &cassette.interactions[0];
    let tools = listed.result.as_ref().unwrap()["tools"].as_array().unwrap();
    assert!(tools.iter().any(|tool| tool["name"] == "echo"));

    let progress = cassette.find("tools/call", Some("progress")).unwrap();
    assert_eq!(
        progress.params["arguments"],
        json!({"steps": 3, "delay_ms": 1})
    );
    assert_eq!(
        progress.result.as_ref().unwrap()["content"][0]["text"],
        "completed 3 steps"
    );
    let steps: Vec<Option<f64>> = progress
        .notifications
        .iter()
        .map(|n| {
            assert_eq!(n.method, "notifications/progress");
            n.params["progress"].as_f64()
        })
        .collect();
    assert_eq!(steps, [Some(1.0), Some(2.0), Some(3.0)]);
    let elapsed = progress.elapsed_ms.unwrap();
    assert!(
        progress.notifications.iter().all(|n| n.at_ms <= elapsed),
        "notifications come before the answer: {progress:#?}"
    );

    let sample = cassette.find("tools/call", Some("sample")).unwrap();
    let [asked] = sample.server_requests.as_slice() else {
        panic!("one sampling request: {sample:#?}")
    };
    assert_eq!(asked.method, "sampling/createMessage");
    assert_eq!(text_of(&asked.params["messages"][0]["content"]), "write");
    assert_eq!(
        text_of(&asked.result.as_ref().unwrap()["content"]),
        "a haiku"
    );
    assert_eq!(asked.result.as_ref().unwrap()["model"], "test-model");

    let readme = cassette
        .find("resources/read", Some("example://static/readme"))
        .unwrap();
    assert!(
        readme.result.as_ref().unwrap()["contents"][0]["text"]
            .as_str()
            .unwrap()
            .starts_with("# mcp-assured example server")
    );
    let prompt = cassette.find("prompts/get", Some("greet")).unwrap();
    assert_eq!(
        prompt.result.as_ref().unwrap()["messages"][0]["role"],
        json!(Role::User)
    );

    let nope = cassette
        .find("resources/read", Some("example://nope"))
        .unwrap();
    let error = nope.error.as_ref().expect("an error answer");
    assert_eq!(error.code, -32002);
    assert_eq!(error.message, "Resource not found: example://nope");
    assert_eq!(error.data, Some(json!({"uri": "example://nope"})));
    assert!(nope.result.is_none() && nope.elapsed_ms.is_some());
}

#[tokio::test]
async fn secrets_in_arguments_are_written_redacted() {
    let (client, path) = recorded("secrets").await;
    let arguments = json!({"message": "hi", "api_key": "k-8e1f", "auth": {"Password": "pw-77"}});
    client.call_tool("echo", arguments).await.unwrap();
    client.close().await.unwrap();

    let text = std::fs::read_to_string(&path).unwrap();
    for secret in ["k-8e1f", "pw-77"] {
        assert!(!text.contains(secret), "{secret} in {text}");
    }
    let cassette = Cassette::load(&path).unwrap();
    // Negotiated with `server/discover`, which names the server in its `_meta`.
    assert_eq!(cassette.server.protocol_version, "2026-07-28");
    assert_eq!(cassette.server.server_info["name"], "mcp-assured-example");
    assert_eq!(
        cassette.interactions[0].params["arguments"],
        json!({"message": "hi", "api_key": "<redacted>", "auth": {"Password": "<redacted>"}})
    );
    // A replay matches the redacted value with whatever the test sends there.
    let asked = json!({"name": "echo", "arguments": {"message": "hi", "api_key": "other", "auth": {"Password": "x"}}});
    let answer = cassette
        .answer("tools/call", &asked, &Matching::new())
        .unwrap();
    assert_eq!(answer.result.as_ref().unwrap()["content"][0]["text"], "hi");
}

#[tokio::test]
async fn a_client_never_closed_still_leaves_its_cassette() {
    let (client, path) = recorded("never_closed").await;
    assert!(
        Cassette::load(&path).unwrap().interactions.is_empty(),
        "written at the start"
    );
    client
        .call_tool("echo", json!({"message": "one"}))
        .await
        .unwrap();
    // Written after each exchange, while the session goes on.
    let during = eventually_answered(&path, 1).await;
    assert_eq!(during.interactions[0].params["arguments"]["message"], "one");
    client
        .call_tool("echo", json!({"message": "two"}))
        .await
        .unwrap();
    // As a test that panics would: dropped, not closed.
    drop(client);
    let after = eventually_answered(&path, 2).await;
    assert_eq!(after.interactions[1].params["arguments"]["message"], "two");
}

#[tokio::test]
async fn a_cassette_that_cannot_be_written_fails_build() {
    let blocker = cassette_path("a_file_not_a_folder");
    std::fs::create_dir_all(blocker.parent().unwrap()).unwrap();
    std::fs::write(&blocker, "").unwrap();
    let error = McpAssured::client()
        .service(ExampleServer::new())
        .record_to(blocker.join("session.json"))
        .build()
        .await
        .unwrap_err()
        .to_string();
    assert!(
        error.starts_with(&format!(
            "invalid record_to: cassette {}: cannot be written:",
            blocker.join("session.json").display()
        )),
        "{error}"
    );
}

#[tokio::test]
async fn the_lookup_answers_as_recorded_and_names_the_closest_miss() {
    let (client, path) = recorded("lookup").await;
    for city in ["London", "Paris"] {
        client
            .call_tool("weather", json!({"city": city}))
            .await
            .unwrap();
    }
    client
        .call_tool("add", json!({"a": 1, "b": 2}))
        .await
        .unwrap();
    client
        .call_tool("add", json!({"a": 1, "b": 2}))
        .await
        .unwrap();
    client.close().await.unwrap();
    let cassette = Cassette::load(&path).unwrap();

    // rmcp's own progress token, in `_meta`, is not compared.
    let paris =
        json!({"name": "weather", "arguments": {"city": "Paris"}, "_meta": {"progressToken": 99}});
    let answer = cassette
        .answer("tools/call", &paris, &Matching::new())
        .unwrap();
    assert_eq!(
        answer.result.as_ref().unwrap()["structuredContent"]["city"],
        "Paris"
    );

    let add = json!({"name": "add", "arguments": {"a": 1, "b": 2}});
    let first = cassette
        .answer("tools/call", &add, &Matching::new())
        .unwrap() as *const _;
    let second = cassette
        .answer("tools/call", &add, &Matching::new())
        .unwrap() as *const _;
    let third = cassette
        .answer("tools/call", &add, &Matching::new())
        .unwrap() as *const _;
    assert!(std::ptr::eq(first, &cassette.interactions[2]));
    assert!(std::ptr::eq(second, &cassette.interactions[3]));
    assert!(std::ptr::eq(third, second), "the last is repeated");

    let berlin = json!({"name": "weather", "arguments": {"city": "Berlin"}});
    let lenient = cassette
        .answer("tools/call", &berlin, &Matching::ignoring_arguments())
        .unwrap();
    assert_eq!(lenient.params["arguments"]["city"], "London");

    let miss = cassette
        .answer("tools/call", &berlin, &Matching::new())
        .unwrap_err();
    let closest = miss.closest.as_ref().unwrap();
    assert_eq!(closest.index, 0);
    assert_eq!(
        closest.differences,
        [r#"/arguments/city: recorded "London", asked "Berlin""#]
    );
    let message = miss.to_string();
    assert!(
        message.contains("(matching method, name or URI, and arguments; 4 answered in the cassette)\nthe closest is interaction 0: `tools/call` "),
        "{message}"
    );

    let typo = json!({"name": "weathr", "arguments": {"city": "Paris"}});
    let miss = cassette
        .answer("tools/call", &typo, &Matching::new())
        .unwrap_err();
    assert_eq!(
        miss.closest.unwrap().index,
        1,
        "the nearest name, then the fewest differences"
    );
    let unknown = cassette.answer(
        "prompts/get",
        &json!({"name": "greet"}),
        &Matching::method_only(),
    );
    let unknown = unknown.unwrap_err().to_string();
    assert!(
        unknown.starts_with(
            "no recorded interaction answers `prompts/get` {\"name\":\"greet\"} (matching method;"
        ),
        "{unknown}"
    );
}

#[tokio::test]
async fn a_proxy_passes_a_session_through_and_records_it() {
    let path = cassette_path("proxy");
    let (client_end, proxy_end) = tokio::io::duplex(1 << 16);
    let proxy = tokio::spawn(
        McpAssured::client()
            .service(ExampleServer::new())
            .record_to(&path)
            .proxy(proxy_end, std::future::pending()),
    );
    let client = ().serve(client_end).await.unwrap();
    let tools = client.list_tools(None).await.unwrap();
    assert!(tools.tools.iter().any(|tool| tool.name == "echo"));
    let mut call = CallToolRequestParams::new("echo");
    call.arguments = json!({"message": "through"}).as_object().cloned();
    let echoed = client.call_tool(call).await.unwrap();
    assert_eq!(echoed.content[0].as_text().unwrap().text, "through");
    client.cancel().await.unwrap();
    // The client closed its end: the proxy stops the server and writes the cassette.
    tokio::time::timeout(Duration::from_secs(10), proxy)
        .await
        .expect("the proxy ends with its client")
        .unwrap()
        .unwrap();

    let cassette = Cassette::load(&path).unwrap();
    assert_eq!(cassette.server.server_info["name"], "mcp-assured-example");
    assert_eq!(cassette.methods(), ["tools/list", "tools/call"]);
    let echo = &cassette.interactions[1];
    assert_eq!(echo.params["arguments"], json!({"message": "through"}));
    assert_eq!(
        echo.result.as_ref().unwrap()["content"][0]["text"],
        "through"
    );
}
