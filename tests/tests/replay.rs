//! Record, then replay with no server running: a session recorded from server-everything
//! and from the Python SDK peer, served again by `MockServer::from_cassette` and by
//! `mcp-assured replay` (stdio and HTTP), answers as the server did; a request nothing
//! recorded answers is refused naming the closest recorded one.

use std::{path::PathBuf, time::Duration};

use mcp_assured::{
    Error, McpAssured, McpClient,
    cassette::{Cassette, Matching},
    double::MockServer,
};
use mcp_assured_tests::{
    Transport, connect,
    sdk_clients::{self, Reach, SdkClient},
    workspace_binary,
};
use serde_json::{Value, json};

/// A fresh path for a cassette of this test.
fn cassette_path(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("mcp-assured-replay-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("{test}.json"));
    let _ = std::fs::remove_file(&path);
    path
}

/// One call of the session, and what it answered.
#[derive(Debug, PartialEq)]
struct Answered {
    call: String,
    answer: Value,
}

/// The same calls against `client`: what a recorded session asked, and what a replay is
/// asked again.
async fn session_everything(client: &McpClient) -> Vec<Answered> {
    let mut answers = Vec::new();
    let tools = client.list_tools_json().await.unwrap();
    let mut names: Vec<Value> = tools.iter().map(|tool| tool["name"].clone()).collect();
    names.sort_by_key(ToString::to_string);
    answers.push(Answered {
        call: "tools/list".into(),
        answer: Value::Array(names),
    });
    let echoed = client
        .call_tool("echo", json!({"message": "hi"}))
        .await
        .unwrap();
    answers.push(Answered {
        call: "echo".into(),
        answer: echoed.json(),
    });
    let summed = client
        .call_tool("get-sum", json!({"a": 2, "b": 3}))
        .await
        .unwrap();
    answers.push(Answered {
        call: "get-sum".into(),
        answer: summed.json(),
    });
    let doc = "demo://resource/static/document/architecture.md";
    let read = client.read_resource(doc).await.unwrap();
    answers.push(Answered {
        call: "read".into(),
        answer: read.json(),
    });
    let prompt = client
        .get_prompt("args-prompt", json!({"city": "Paris"}))
        .await
        .unwrap();
    answers.push(Answered {
        call: "prompt".into(),
        answer: prompt.json(),
    });
    let refused = client.get_prompt("nope", json!({})).await.unwrap_err();
    answers.push(Answered {
        call: "refused".into(),
        answer: json!(refused.to_string().contains("nope")),
    });
    answers
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_session_with_server_everything_replays_offline() {
    let path = cassette_path("everything");
    let recorded_to = path.clone();
    let recorded = {
        let connected =
            connect::everything(Transport::Stdio, |builder| builder.record_to(recorded_to)).await;
        let answers = session_everything(&connected).await;
        connected.client.close().await.unwrap();
        answers
    };
    // The server is gone (its process ended with the client); the cassette answers alone.
    let double = MockServer::from_cassette(&path).await.unwrap();
    let client = McpAssured::client()
        .base_uri(double.uri())
        .protocol_version("2025-11-25")
        .build()
        .await
        .unwrap();
    assert_eq!(
        client.server_info().name,
        Cassette::load(&path).unwrap().server.server_info["name"]
    );
    let replayed = session_everything(&client).await;
    assert_eq!(replayed, recorded);
    // Asked what was never recorded: refused, naming the closest recorded request.
    match client
        .call_tool("echo", json!({"message": "bye"}))
        .await
        .unwrap_err()
    {
        Error::JsonRpc { code, message, .. } => {
            assert_eq!(code, -32602);
            assert!(
                message.contains("no recorded interaction answers"),
                "{message}"
            );
            assert!(
                message.contains(r#""hi""#),
                "the closest is shown: {message}"
            );
        }
        other => panic!("expected a JSON-RPC error, got {other:?}"),
    }
    assert_eq!(double.replay_misses().len(), 1);
}

/// The Python SDK peer over stdio, its session recorded to `path`.
async fn python_recorded_to(path: &std::path::Path) -> McpClient {
    McpAssured::client()
        .command(mcp_assured_tests::peers::python())
        .arg(mcp_assured_tests::peers::python_server_script())
        .protocol_version("2025-11-25")
        .record_to(path)
        .build()
        .await
        .unwrap()
}

async fn session_python(client: &McpClient) -> Vec<Value> {
    vec![
        client
            .call_tool("echo", json!({"message": "py"}))
            .await
            .unwrap()
            .json(),
        client
            .call_tool("add", json!({"a": 4, "b": 5}))
            .await
            .unwrap()
            .json(),
        client
            .call_tool("divide", json!({"a": 1, "b": 0}))
            .await
            .unwrap()
            .json(),
        client.read_resource("python://info").await.unwrap().json(),
        json!(
            client
                .read_resource("python://nope")
                .await
                .unwrap_err()
                .to_string()
        ),
    ]
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_session_with_the_python_sdk_replays_through_the_cli() {
    let path = cassette_path("python");
    let recorded = {
        let client = python_recorded_to(&path).await;
        let answers = session_python(&client).await;
        client.close().await.unwrap();
        answers
    };
    let binary = workspace_binary("mcp-assured-cli", "mcp-assured");
    // Over stdio: the client starts `mcp-assured replay` in place of the server.
    let over_stdio = McpAssured::client()
        .command(&binary)
        .arg("replay")
        .arg(&path)
        .protocol_version("2025-11-25")
        .build()
        .await
        .unwrap();
    assert_eq!(session_python(&over_stdio).await, recorded);
    over_stdio.close().await.unwrap();
    // Over HTTP, on a free port it names on stderr.
    let mut serving = tokio::process::Command::new(&binary)
        .args(["replay", "--http", "0"])
        .arg(&path)
        .stderr(std::process::Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    let mut stderr = tokio::io::BufReader::new(serving.stderr.take().unwrap());
    let mut line = String::new();
    tokio::time::timeout(
        Duration::from_secs(20),
        tokio::io::AsyncBufReadExt::read_line(&mut stderr, &mut line),
    )
    .await
    .expect("`mcp-assured replay --http 0` says where it serves")
    .unwrap();
    let url = line
        .trim()
        .strip_prefix("mcp-assured replay: serving ")
        .unwrap_or_else(|| panic!("not the serving line: {line:?}"))
        .to_owned();
    let over_http = McpAssured::client()
        .base_uri(url)
        .protocol_version("2025-11-25")
        .build()
        .await
        .unwrap();
    assert_eq!(session_python(&over_http).await, recorded);
    serving.kill().await.unwrap();
}

/// A cassette of one call (`mcp-assured call --record`) from a server on 2026-07-28 lists no
/// tools; the Python SDK's documented client lists before it calls, and refuses a result
/// without `resultType`. Replayed by the CLI over stdio and by `MockServer::from_cassette`
/// over HTTP, it gets the tool it called and the recorded answer.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_one_call_cassette_replays_to_the_sdks_clients() {
    let path = cassette_path("one-call-2026");
    let binary = workspace_binary("mcp-assured-cli", "mcp-assured");
    let recorded = tokio::process::Command::new(&binary)
        .args(["call", "echo", "--arg", "message=py", "--record"])
        .arg(&path)
        .arg("--")
        .arg(mcp_assured_tests::peers::python())
        .arg(mcp_assured_tests::peers::python_server_script())
        .output()
        .await
        .unwrap();
    assert!(
        recorded.status.success(),
        "{}",
        String::from_utf8_lossy(&recorded.stderr)
    );
    let cassette = Cassette::load(&path).unwrap();
    assert_eq!(cassette.server.protocol_version, "2026-07-28");
    let methods: Vec<&str> = cassette
        .interactions
        .iter()
        .map(|interaction| interaction.method.as_str())
        .collect();
    assert_eq!(methods, ["tools/call"], "one call, no list");
    let answered = cassette.interactions[0].result.clone().unwrap();
    assert_eq!(answered["content"], json!([{"type": "text", "text": "py"}]));

    // Each SDK client lists, then calls `echo`: through the CLI's replay over stdio, and
    // `MockServer::from_cassette` over HTTP.
    let steps = json!([["list_tools"], ["call", "echo", {"message": "py"}]]);
    let double = MockServer::from_cassette(&path).await.unwrap();
    let replay = [
        binary.into_os_string(),
        "replay".into(),
        path.into_os_string(),
    ];
    let uri = double.uri();
    for client in [SdkClient::PythonClient, SdkClient::TypeScript] {
        for reach in [Reach::Stdio(&replay), Reach::Http(&uri)] {
            let report = sdk_clients::drive(client, &steps, reach).await;
            assert_eq!(report["protocol"], client.negotiates(), "{report}");
            assert_eq!(
                report["steps"][0],
                json!(["echo"]),
                "{client:?} over {reach:?}"
            );
            assert_eq!(
                report["steps"][1]["content"], answered["content"],
                "{client:?} over {reach:?}"
            );
            if client == SdkClient::PythonClient {
                // As recorded on 2026-07-28, `resultType` and all.
                assert_eq!(report["steps"][1], answered, "over {reach:?}");
            }
        }
    }
    assert!(double.replay_misses().is_empty());
}

#[tokio::test]
async fn matching_by_name_answers_other_arguments_as_recorded() {
    let path = cassette_path("by-name");
    {
        let client = python_recorded_to(&path).await;
        client
            .call_tool("echo", json!({"message": "first"}))
            .await
            .unwrap();
        client.close().await.unwrap();
    }
    let cassette = Cassette::load(&path).unwrap();
    let double = MockServer::builder()
        .replay(cassette)
        .matching(Matching::ignoring_arguments())
        .start()
        .await;
    let client = McpAssured::client()
        .base_uri(double.uri())
        .build()
        .await
        .unwrap();
    let answered = client
        .call_tool("echo", json!({"message": "anything"}))
        .await
        .unwrap();
    assert_eq!(answered.text(), "first");
}

/// A cassette whose recorded capabilities are not MCP's cannot be served: `from_cassette`
/// says so as its error, naming the file, instead of panicking.
#[tokio::test]
async fn a_cassette_a_double_cannot_serve_is_an_error_not_a_panic() {
    let path = cassette_path("bad-capabilities");
    let cassette = Cassette::new(mcp_assured::cassette::RecordedServer {
        server_info: json!({"name": "odd", "version": "1"}),
        protocol_version: "2025-11-25".into(),
        capabilities: json!({"tools": 7}),
        instructions: None,
    });
    cassette.save(&path).unwrap();
    let error = MockServer::from_cassette(&path).await.unwrap_err();
    assert_eq!(error.path, path);
    assert!(
        error.problem.starts_with("a double cannot replay it:"),
        "{}",
        error.problem
    );
}
