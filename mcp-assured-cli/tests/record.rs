//! `mcp-assured record`: the stdio proxy driven by a real client (the library's), in front of
//! server-everything over stdio and the Python SDK peer over streamable HTTP; the cassette
//! written when the client disconnects and on SIGTERM; and `--record` on one-shot commands.

mod support;

use std::{
    io::{BufRead, BufReader, Write as _},
    path::{Path, PathBuf},
    process::{Command, Stdio},
    time::{Duration, Instant},
};

use mcp_assured::{McpAssured, cassette::Cassette};
use mcp_assured_tests::{Transport, connect, peers, server};
use serde_json::{Value, json};

/// A fresh path for a cassette of this test.
fn cassette_path(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("mcp-assured-record-{}", std::process::id()));
    let path = dir.join(format!("{test}.json"));
    let _ = std::fs::remove_file(&path);
    path
}

fn everything_stdio() -> Vec<String> {
    vec![
        peers::node().display().to_string(),
        peers::server_everything().display().to_string(),
        "stdio".to_owned(),
    ]
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_records_its_session_through_the_proxy() {
    let path = cassette_path("proxy_everything");
    let out = path.display().to_string();
    let client = McpAssured::client()
        .command(env!("CARGO_BIN_EXE_mcp-assured"))
        .args(["record", "--out", &out, "--"])
        .args(everything_stdio())
        .protocol_version("2025-11-25")
        .on_sampling(|request| connect::sampled(request, |asked| format!("echo: {asked}")))
        .timeout(Duration::from_secs(20))
        .build()
        .await
        .unwrap();
    // The server's own answer to `initialize`, passed through.
    assert_eq!(client.server_info().name, "mcp-servers/everything");
    let tools = client.list_tools().await.unwrap();
    assert!(tools.iter().any(|tool| tool.name == "echo"));
    let steps = json!({"duration": 0.3, "steps": 3});
    client
        .call_tool("trigger-long-running-operation", steps)
        .await
        .unwrap();
    // Its progress notifications reached the client, under the client's own token.
    assert_eq!(client.progress_notifications().len(), 3);
    // A request of the server's went to the client and its answer back.
    let sampled = client
        .call_tool("trigger-sampling-request", json!({"prompt": "hello"}))
        .await
        .unwrap();
    let text = sampled.content[0].as_text().unwrap().text.clone();
    assert!(
        text.contains("echo: Resource trigger-sampling-request context: hello"),
        "{text}"
    );
    client
        .read_resource("demo://resource/static/document/architecture.md")
        .await
        .unwrap();
    client.get_prompt("nope", json!({})).await.unwrap_err();
    client.close().await.unwrap();

    let cassette = Cassette::load(&path).unwrap();
    assert_eq!(
        cassette.server.server_info["name"],
        "mcp-servers/everything"
    );
    assert_eq!(cassette.server.protocol_version, "2025-11-25");
    let long = cassette
        .find("tools/call", Some("trigger-long-running-operation"))
        .unwrap();
    assert_eq!(long.notifications.len(), 3, "{long:#?}");
    assert!(long.elapsed_ms.unwrap() >= 250.0);
    let sampling = cassette
        .find("tools/call", Some("trigger-sampling-request"))
        .unwrap();
    let [asked] = sampling.server_requests.as_slice() else {
        panic!("one sampling request: {sampling:#?}")
    };
    assert_eq!(asked.method, "sampling/createMessage");
    assert_eq!(asked.result.as_ref().unwrap()["model"], "test-model");
    let read = cassette
        .find(
            "resources/read",
            Some("demo://resource/static/document/architecture.md"),
        )
        .unwrap();
    assert!(read.result.is_some());
    let nope = cassette.find("prompts/get", Some("nope")).unwrap();
    assert_eq!(nope.error.as_ref().unwrap().code, -32602);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_proxy_reaches_a_url_and_keeps_what_the_server_sent() {
    let python = server::python(Transport::StreamableHttp).await;
    let path = cassette_path("proxy_python_http");
    let out = path.display().to_string();
    let url = python.url().unwrap().to_string();
    let client = McpAssured::client()
        .command(env!("CARGO_BIN_EXE_mcp-assured"))
        .args(["record", "--out", &out, &url])
        .protocol_version("2025-11-25")
        .build()
        .await
        .unwrap();
    // Fields rmcp does not model reach the client: the annotation's priority as written.
    let ranked = client.call_tool("ranked", json!({})).await.unwrap();
    assert_eq!(
        ranked.json()["content"][0]["annotations"]["priority"],
        json!(0.7)
    );
    let added = client
        .call_tool("add", json!({"a": 2, "b": 3}))
        .await
        .unwrap();
    assert_eq!(added.structured_content, Some(json!({"sum": 5})));
    client.close().await.unwrap();

    let cassette = Cassette::load(&path).unwrap();
    assert_eq!(
        cassette.server.server_info["name"],
        "mcp-assured-python-peer"
    );
    let ranked = cassette.find("tools/call", Some("ranked")).unwrap();
    assert_eq!(
        ranked.result.as_ref().unwrap()["content"][0]["annotations"]["priority"],
        json!(0.7)
    );
    let add = cassette.find("tools/call", Some("add")).unwrap();
    assert_eq!(
        add.result.as_ref().unwrap()["structuredContent"],
        json!({"sum": 5})
    );
}

/// Reads lines from `output` until the answer to request `id`.
fn answer_to(output: &mut impl BufRead, id: u64) -> Value {
    let mut line = String::new();
    loop {
        line.clear();
        assert!(output.read_line(&mut line).unwrap() > 0, "stdout closed");
        let message: Value = serde_json::from_str(&line).unwrap();
        if message["id"] == id && message.get("method").is_none() {
            return message;
        }
    }
}

#[test]
fn sigterm_ends_the_proxy_with_its_cassette_written() {
    let path = cassette_path("sigterm");
    let mut proxy = Command::new(env!("CARGO_BIN_EXE_mcp-assured"))
        .args(["record", "--out", path.to_str().unwrap(), "--"])
        .args(everything_stdio())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = proxy.stdin.take().unwrap();
    let mut output = BufReader::new(proxy.stdout.take().unwrap());
    let mut send = |message: Value| writeln!(input, "{message}").unwrap();
    send(
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25",
            "capabilities": {},
            "clientInfo": {"name": "by-hand", "version": "1"},
        }}),
    );
    let initialized = answer_to(&mut output, 1);
    assert_eq!(
        initialized["result"]["serverInfo"]["name"],
        "mcp-servers/everything"
    );
    send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
    send(
        json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {
            "name": "echo", "arguments": {"message": "before the signal"},
        }}),
    );
    assert_eq!(
        answer_to(&mut output, 2)["result"]["content"][0]["text"],
        "Echo: before the signal"
    );
    // A request still in flight when the signal comes.
    send(
        json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {
            "name": "trigger-long-running-operation", "arguments": {"duration": 30, "steps": 1},
        }}),
    );
    let pid = nix::unistd::Pid::from_raw(proxy.id() as i32);
    wait_for_interactions(&path, 2);
    nix::sys::signal::kill(pid, nix::sys::signal::Signal::SIGTERM).unwrap();
    let deadline = Instant::now() + Duration::from_secs(15);
    let status = loop {
        if let Some(status) = proxy.try_wait().unwrap() {
            break status;
        }
        assert!(
            Instant::now() < deadline,
            "the proxy did not end on SIGTERM"
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    let mut stderr = String::new();
    std::io::Read::read_to_string(&mut proxy.stderr.take().unwrap(), &mut stderr).unwrap();
    assert!(status.success(), "{status}: {stderr}");
    assert!(stderr.contains("2 interaction(s) in"), "{stderr}");
    let cassette = Cassette::load(&path).unwrap();
    let echo = cassette.find("tools/call", Some("echo")).unwrap();
    assert_eq!(
        echo.result.as_ref().unwrap()["content"][0]["text"],
        "Echo: before the signal"
    );
    let cut = cassette
        .find("tools/call", Some("trigger-long-running-operation"))
        .unwrap();
    assert!(!cut.is_answered() && cut.elapsed_ms.is_none(), "{cut:#?}");
}

/// Waits until the cassette at `path` holds `count` interactions.
fn wait_for_interactions(path: &Path, count: usize) {
    let deadline = Instant::now() + Duration::from_secs(10);
    while Cassette::load(path).map_or(0, |c| c.interactions.len()) < count {
        assert!(
            Instant::now() < deadline,
            "never {count} interactions in {}",
            path.display()
        );
        std::thread::sleep(Duration::from_millis(10));
    }
}

#[test]
fn one_shot_commands_record_with_the_record_option() {
    let path = cassette_path("one_shot_call");
    let everything = everything_stdio();
    let args = [
        &[
            "call",
            "echo",
            "--arg",
            "message=hi",
            "--record",
            path.to_str().unwrap(),
            "--",
        ][..],
        &everything.iter().map(String::as_str).collect::<Vec<_>>(),
    ]
    .concat();
    let output = support::run(&args, &[]);
    assert!(output.status.success(), "{}", support::printed(&output));
    let cassette = Cassette::load(&path).unwrap();
    let echo = cassette.find("tools/call", Some("echo")).unwrap();
    assert_eq!(echo.params["arguments"], json!({"message": "hi"}));
    assert_eq!(
        echo.result.as_ref().unwrap()["content"][0]["text"],
        "Echo: hi"
    );

    let unwritable = support::run(
        &[
            &["list", "--record", "/proc/mcp-assured/no.json", "--"][..],
            &everything.iter().map(String::as_str).collect::<Vec<_>>(),
        ]
        .concat(),
        &[],
    );
    assert_eq!(
        unwritable.status.code(),
        Some(2),
        "{}",
        support::printed(&unwritable)
    );
    assert!(
        support::printed(&unwritable)
            .contains("cassette /proc/mcp-assured/no.json: cannot be written"),
        "{}",
        support::printed(&unwritable)
    );
}
