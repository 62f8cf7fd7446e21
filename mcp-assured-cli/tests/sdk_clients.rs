//! What the binary serves, read by the official SDKs' clients (the Python SDK's `mcp.Client`
//! on its default negotiation, which lands on 2026-07-28, and its `ClientSession`; the
//! TypeScript SDK's `Client`), each validating every result against its revision's types:
//!
//! - `mcp-assured record`, the recording proxy, in front of the Python SDK peer over stdio
//!   and over streamable HTTP: each client gets exactly what it gets from the server
//!   directly (lists, calls, a tool error, an unknown tool, resources, a protocol error,
//!   templates, prompts), and the cassette holds the session on the client's revision;
//! - `mcp-assured serve`, the companion, over stdio and streamable HTTP: listed, connected
//!   to the example server, a call through it, a tool error, an unknown tool;
//! - the example server over stdio, streamable HTTP and HTTP+SSE, and the router in front
//!   of it: every kind of answer they give.
//!
//! The double and its stdio relay are driven the same way in `tests/tests/double.rs`.

use std::ffi::{OsStr, OsString};

use mcp_assured::{
    cassette::Cassette,
    fixture::{ServerCommand, ServerProcess},
};
use mcp_assured_tests::{
    Transport, example_server_binary, peers,
    sdk_clients::{Reach, SdkClient, drive},
    server,
};
use serde_json::{Value, json};

const MCP_ASSURED: &str = env!("CARGO_BIN_EXE_mcp-assured");

/// What every client does with the Python SDK peer (`tests/peers/PYTHON-SERVER.md`).
fn peer_session() -> Value {
    json!([
        ["list_tools"],
        ["call", "add", {"a": 2, "b": 3}],
        ["call", "divide", {"a": 1, "b": 0}],
        ["call", "no_such_tool", {}],
        ["list_resources"],
        ["read", "python://info"],
        ["read", "python://nope"],
        ["list_templates"],
        ["list_prompts"],
        ["prompt", "summarize", {"text": "MCP"}],
    ])
}

/// What the SDK made of the peer's answers: each as the peer means it, none refused but
/// the unknown resource.
#[track_caller]
fn assert_peer_answers(report: &Value, client: SdkClient) {
    assert_eq!(report["server"], "mcp-assured-python-peer", "{report}");
    assert_eq!(report["protocol"], client.negotiates(), "{report}");
    let steps = report["steps"].as_array().unwrap();
    assert_eq!(steps[0], json!(["echo", "add", "divide", "ranked"]));
    assert_eq!(steps[1]["structuredContent"], json!({"sum": 5}), "{report}");
    assert_eq!(steps[2]["isError"], json!(true), "{report}");
    assert_eq!(steps[3]["isError"], json!(true), "{report}");
    assert_eq!(steps[4], json!(["python://info"]));
    assert!(steps[5]["contents"][0]["text"].is_string(), "{report}");
    let refused = steps[6]["error"].as_str().unwrap_or_default();
    assert!(refused.contains("Unknown resource"), "{report}");
    assert_eq!(steps[7], json!(["python://greeting/{name}"]));
    assert_eq!(steps[8], json!(["summarize"]));
    assert!(
        steps[9]["messages"][0]["content"]["text"].is_string(),
        "{report}"
    );
    let others_refused: Vec<&Value> = steps
        .iter()
        .enumerate()
        .filter(|(index, step)| *index != 6 && step.get("error").is_some())
        .map(|(_, step)| step)
        .collect();
    assert!(others_refused.is_empty(), "{others_refused:#?}");
}

fn command_line(parts: &[&OsStr]) -> Vec<OsString> {
    parts.iter().map(|part| part.to_os_string()).collect()
}

/// A fresh path for a cassette of this test.
fn cassette_path(test: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("mcp-assured-sdk-clients-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("{test}.json"));
    let _ = std::fs::remove_file(&path);
    path
}

/// The cassette the proxy wrote holds the client's session, on the client's revision.
#[track_caller]
fn assert_recorded(path: &std::path::Path, client: SdkClient) {
    let cassette = Cassette::load(path).unwrap();
    assert_eq!(cassette.server.protocol_version, client.negotiates());
    let added = cassette.find("tools/call", Some("add")).unwrap();
    assert_eq!(
        added.result.as_ref().unwrap()["structuredContent"],
        json!({"sum": 5})
    );
    let refused = cassette
        .find("resources/read", Some("python://nope"))
        .unwrap();
    assert!(refused.error.is_some(), "{refused:#?}");
}

/// Each SDK client runs [`peer_session`] against the peer at `direct`, then through
/// `mcp-assured record --out FILE TARGET..`: it reads the same, and the cassette holds it.
async fn the_record_proxy_is_invisible(face: &str, direct: Reach<'_>, target: &[&OsStr]) {
    for client in SdkClient::ALL {
        let path = cassette_path(&format!("{face}-{client:?}"));
        let mut proxied = command_line(&[
            MCP_ASSURED.as_ref(),
            "record".as_ref(),
            "--out".as_ref(),
            path.as_os_str(),
        ]);
        proxied.extend(command_line(target));
        let alone = drive(client, &peer_session(), direct).await;
        let through = drive(client, &peer_session(), Reach::Stdio(&proxied)).await;
        assert_peer_answers(&alone, client);
        assert_eq!(
            through, alone,
            "{client:?}: the proxy changed what the client read"
        );
        assert_recorded(&path, client);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_record_proxy_over_stdio_is_invisible_to_every_sdk_client() {
    let (python, script) = (peers::python(), peers::python_server_script());
    let peer = [python.as_os_str(), script.as_os_str()];
    let direct = command_line(&peer);
    let mut target = vec!["--".as_ref()];
    target.extend(peer);
    the_record_proxy_is_invisible("stdio", Reach::Stdio(&direct), &target).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_record_proxy_to_a_url_is_invisible_to_every_sdk_client() {
    let peer = server::python(Transport::StreamableHttp).await;
    let url = peer.url().unwrap();
    the_record_proxy_is_invisible("http", Reach::Http(url), &[url.as_ref()]).await;
}

/// What every client does with the companion: its tools, connecting to the example server
/// over stdio, a call through it, a companion tool's error, and a tool it does not have.
fn companion_session() -> Value {
    json!([
        ["list_tools"],
        ["call", "connect_to_server", {"command": example_server_binary()}],
        ["call", "call_tool", {"name": "echo", "arguments": {"message": "from an SDK"}}],
        ["call", "read_resource", {"uri": "example://nope"}],
        ["call", "no_such_tool", {}],
    ])
}

#[track_caller]
fn assert_companion_answers(report: &Value, client: SdkClient) {
    assert_eq!(report["server"], "mcp-assured", "{report}");
    assert_eq!(report["protocol"], client.negotiates(), "{report}");
    let steps = report["steps"].as_array().unwrap();
    let tools = steps[0].as_array().unwrap();
    for tool in [
        "connect_to_server",
        "call_tool",
        "read_resource",
        "check_server",
    ] {
        assert!(tools.contains(&json!(tool)), "{tool}: {report}");
    }
    assert_eq!(
        steps[1]["structuredContent"]["success"],
        json!(true),
        "{report}"
    );
    assert_eq!(
        steps[2]["structuredContent"]["tool_call"]["result"]["content"][0]["text"],
        json!("from an SDK"),
        "{report}"
    );
    assert_eq!(steps[3]["isError"], json!(true), "{report}");
    assert_eq!(
        steps[3]["structuredContent"]["error"]["type"],
        json!("resource_not_found"),
        "{report}"
    );
    // An unknown tool is a protocol error (-32602), which each SDK raises.
    let unknown = steps[4]["error"].as_str().unwrap_or_default();
    assert!(unknown.contains("no_such_tool"), "{report}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_companion_over_stdio_serves_every_sdk_client() {
    let serve = command_line(&[MCP_ASSURED.as_ref(), "serve".as_ref()]);
    for client in SdkClient::ALL {
        let report = drive(client, &companion_session(), Reach::Stdio(&serve)).await;
        assert_companion_answers(&report, client);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_companion_over_http_serves_every_sdk_client() {
    let command =
        ServerCommand::new(MCP_ASSURED).args(["serve", "--transport", "http", "--port", "{port}"]);
    let companion: ServerProcess = server::start(&command, "/mcp").await;
    let url = companion.url().unwrap();
    for client in SdkClient::ALL {
        let report = drive(client, &companion_session(), Reach::Http(url)).await;
        assert_companion_answers(&report, client);
    }
}

/// The indices of the steps each SDK refused (a JSON-RPC error, or a result it could not
/// read).
fn refused_steps(report: &Value) -> Vec<usize> {
    report["steps"]
        .as_array()
        .unwrap()
        .iter()
        .enumerate()
        .filter(|(_, step)| step.get("error").is_some())
        .map(|(index, _)| index)
        .collect()
}

/// What every client does with the example server: every kind of answer it gives.
fn example_session() -> Value {
    json!([
        ["list_tools"],
        ["call", "add", {"a": 2, "b": 3}],
        ["call", "weather", {"city": "Atlantis"}],
        ["call", "no_such_tool", {}],
        ["list_resources"],
        ["read", "example://static/readme"],
        ["read", "example://static/logo.png"],
        ["read", "example://nope"],
        ["list_templates"],
        ["read", "example://greeting/Ada"],
        ["list_prompts"],
        ["prompt", "greet", {"name": "Ada"}],
    ])
}

#[track_caller]
fn assert_example_answers(report: &Value, client: SdkClient) {
    assert_eq!(report["server"], "mcp-assured-example", "{report}");
    assert_eq!(report["protocol"], client.negotiates(), "{report}");
    let steps = report["steps"].as_array().unwrap();
    assert!(
        steps[0].as_array().unwrap().contains(&json!("weather")),
        "{report}"
    );
    assert_eq!(steps[1]["structuredContent"], json!({"sum": 5}), "{report}");
    assert_eq!(steps[2]["isError"], json!(true), "{report}");
    assert!(steps[5]["contents"][0]["text"].is_string(), "{report}");
    assert!(steps[6]["contents"][0]["blob"].is_string(), "{report}");
    assert_eq!(steps[8], json!(["example://greeting/{name}"]), "{report}");
    assert!(
        steps[11]["messages"][0]["content"]["text"].is_string(),
        "{report}"
    );
    // The unknown tool and the unknown resource are protocol errors; nothing else refused.
    assert_eq!(refused_steps(report), [3, 7], "{report}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_example_server_serves_every_sdk_client() {
    let example = example_server_binary();
    let stdio = command_line(&[example.as_os_str()]);
    let http = server::start(
        &ServerCommand::new(&example).args(["--transport", "streamable-http", "--port", "{port}"]),
        "/mcp",
    )
    .await;
    for client in SdkClient::ALL {
        for reach in [Reach::Stdio(&stdio), Reach::Http(http.url().unwrap())] {
            let report = drive(client, &example_session(), reach).await;
            assert_example_answers(&report, client);
        }
    }
    let sse = server::start(
        &ServerCommand::new(&example).args(["--transport", "sse", "--port", "{port}"]),
        "/sse",
    )
    .await;
    let report = drive(
        SdkClient::PythonSession,
        &example_session(),
        Reach::Sse(sse.url().unwrap()),
    )
    .await;
    assert_example_answers(&report, SdkClient::PythonSession);
}

/// The router in front of the example server: what it forwards reads as the example
/// server's own answer (on 2026-07-28, before its fix, the SDK refused each call's result
/// for its missing `resultType`).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_router_serves_every_sdk_client() {
    let router = mcp_assured_tests::workspace_binary("router", "router");
    let example = example_server_binary();
    // The router reads its upstreams from its environment: a shell passes it on.
    let line = format!(
        "ROUTER_UPSTREAM_EXAMPLE_COMMAND='{}' exec '{}'",
        example.display(),
        router.display()
    );
    let stdio = command_line(&["sh".as_ref(), "-c".as_ref(), line.as_ref()]);
    let steps = json!([
        ["list_tools"],
        ["call", "example__add", {"a": 2, "b": 3}],
        ["call", "example__weather", {"city": "Atlantis"}],
    ]);
    for client in SdkClient::ALL {
        let report = drive(client, &steps, Reach::Stdio(&stdio)).await;
        assert_eq!(report["protocol"], client.negotiates(), "{report}");
        assert!(
            report["steps"][0]
                .as_array()
                .unwrap()
                .contains(&json!("example__add")),
            "{report}"
        );
        assert_eq!(
            report["steps"][1]["structuredContent"],
            json!({"sum": 5}),
            "{report}"
        );
        assert_eq!(report["steps"][2]["isError"], json!(true), "{report}");
        assert!(refused_steps(&report).is_empty(), "{report}");
    }
}
