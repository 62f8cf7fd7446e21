//! The peers install (once, even when test processes race for it) and really answer MCP.
//!
//! These tests speak JSON-RPC by hand so that they check the peers, not our client.

use std::time::Duration;

use mcp_assured::{
    Error,
    fixture::{ServerCommand, ServerProcess},
};
use mcp_assured_tests::{Transport, eventually, peers, processes, server};
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt as _, AsyncReadExt as _, AsyncWriteExt as _, BufReader};
use tokio::net::TcpStream;
use tokio::process::Command;

const TIMEOUT: Duration = Duration::from_secs(60);

fn initialize_request() -> Value {
    json!({
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {
            "protocolVersion": "2025-11-25",
            "capabilities": {},
            "clientInfo": { "name": "mcp-assured-tests", "version": "0" }
        }
    })
}

/// Sends `initialize` to a stdio server and returns its response; every stdout line must be
/// JSON-RPC.
async fn initialize_over_stdio(mut command: Command) -> Value {
    let mut child = command
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .expect("spawn the stdio server");
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap()).lines();
    stdin
        .write_all(format!("{}\n", initialize_request()).as_bytes())
        .await
        .unwrap();
    stdin.flush().await.unwrap();

    let response = tokio::time::timeout(TIMEOUT, async {
        while let Some(line) = stdout.next_line().await.unwrap() {
            let message: Value = serde_json::from_str(&line)
                .unwrap_or_else(|e| panic!("not JSON-RPC on stdout ({e}): {line}"));
            if message["id"] == 1 {
                return message;
            }
        }
        panic!("stdout closed before the initialize response");
    })
    .await
    .expect("initialize response within the timeout");

    drop(stdin);
    child.kill().await.unwrap();
    response
}

#[tokio::test]
async fn server_everything_installs_and_answers_initialize_over_stdio() {
    let script = peers::server_everything();
    assert!(script.ends_with("dist/index.js"), "{}", script.display());
    assert!(script.is_file(), "{} is missing", script.display());
    assert!(peers::node().is_file());

    let mut command = Command::new(peers::node());
    command.arg(&script).arg("stdio");
    let response = initialize_over_stdio(command).await;

    let result = &response["result"];
    assert_eq!(result["protocolVersion"], "2025-11-25", "{response:#}");
    assert_eq!(result["serverInfo"]["name"], "mcp-servers/everything");
    assert_eq!(result["capabilities"]["tools"]["listChanged"], true);
}

#[tokio::test]
async fn python_sdk_installs_and_its_server_answers_initialize_over_stdio() {
    let python = peers::python();
    assert!(python.is_file(), "{} is missing", python.display());
    assert!(peers::python_server_script().is_file());

    let mut command = Command::new(&python);
    command.arg(peers::python_server_script());
    let response = initialize_over_stdio(command).await;

    let result = &response["result"];
    assert_eq!(result["protocolVersion"], "2025-11-25", "{response:#}");
    assert_eq!(result["serverInfo"]["name"], "mcp-assured-python-peer");
    assert!(result["capabilities"]["tools"].is_object());
}

/// POSTs `initialize` to a streamable HTTP endpoint over a raw socket; returns the response head
/// and body.
async fn post_initialize(server: &ServerProcess) -> String {
    let body = initialize_request().to_string();
    let request = format!(
        "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n\
         Accept: application/json, text/event-stream\r\nContent-Length: {len}\r\n\
         Connection: close\r\n\r\n{body}",
        port = server.port().unwrap(),
        len = body.len(),
    );
    let mut stream = TcpStream::connect(("127.0.0.1", server.port().unwrap()))
        .await
        .unwrap();
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut response = String::new();
    tokio::time::timeout(TIMEOUT, async {
        // The SSE response stays open until the reply is sent; read until it is there.
        let mut buffer = [0; 4096];
        while !response.contains("\"id\":1") {
            let read = stream.read(&mut buffer).await.unwrap();
            assert!(read > 0, "connection closed early:\n{response}");
            response.push_str(&String::from_utf8_lossy(&buffer[..read]));
        }
    })
    .await
    .unwrap_or_else(|_| panic!("no initialize response:\n{response}"));
    response
}

#[tokio::test]
async fn server_everything_serves_streamable_http_on_a_free_port() {
    let server = server::everything(Transport::StreamableHttp).await;
    assert_eq!(
        server.url().unwrap(),
        format!("http://127.0.0.1:{}/mcp", server.port().unwrap())
    );

    let response = post_initialize(&server).await;
    assert!(response.starts_with("HTTP/1.1 200"), "{response}");
    assert!(
        response.to_lowercase().contains("\nmcp-session-id: "),
        "{response}"
    );
    assert!(
        response.contains("\"name\":\"mcp-servers/everything\""),
        "{response}"
    );

    server.stop().await;
    let stdout = server.stdout_tail().unwrap_or_default();
    assert!(stdout.contains("Received MCP POST request"), "{stdout}");
}

#[tokio::test]
async fn python_server_serves_streamable_http_on_a_free_port() {
    let server = server::python(Transport::StreamableHttp).await;
    let response = post_initialize(&server).await;
    assert!(response.starts_with("HTTP/1.1 200"), "{response}");
    assert!(
        response.contains("\"name\":\"mcp-assured-python-peer\""),
        "{response}"
    );
}

#[tokio::test]
async fn server_everything_sse_announces_its_message_endpoint() {
    let server = server::everything(Transport::Sse).await;
    assert!(server.url().unwrap().ends_with("/sse"));

    let port = server.port().unwrap();
    let mut stream = TcpStream::connect(("127.0.0.1", port)).await.unwrap();
    let request =
        format!("GET /sse HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nAccept: text/event-stream\r\n\r\n");
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut lines = BufReader::new(stream).lines();
    let endpoint = tokio::time::timeout(TIMEOUT, async {
        while let Some(line) = lines.next_line().await.unwrap() {
            if let Some(data) = line.strip_prefix("data: ") {
                return data.to_owned();
            }
        }
        panic!("the SSE stream closed before the endpoint event");
    })
    .await
    .expect("endpoint event within the timeout");
    assert!(
        endpoint.starts_with("/message?sessionId="),
        "{endpoint}\n{}",
        server::output(&server)
    );
}

#[tokio::test]
async fn a_dropped_server_leaves_no_process_behind() {
    // A process group of two: a background `sleep` that must die with it, and the listener.
    let command = ServerCommand::new("sh").args([
        "-c",
        &format!(
            "sleep 300 & echo \"sleeper $!\"; exec {} -c 'import socket,time; s=socket.socket(); \
             s.bind((\"127.0.0.1\",{{port}})); s.listen(); time.sleep(300)'",
            peers::python().display()
        ),
    ]);
    let server = server::start(&command, "/").await;
    let port = server.port().unwrap();
    let leader = server.pid().expect("running");
    // The shell prints the pid before the listener starts, but its line may be read after
    // the port answers: wait for it.
    let sleeper_pid = || -> Option<u32> {
        server
            .stdout_tail()
            .unwrap_or_default()
            .split_once("sleeper ")
            .and_then(|(_, rest)| rest.lines().next()?.parse().ok())
    };
    let printed = eventually(Duration::from_secs(5), || async { sleeper_pid().is_some() }).await;
    let sleeper = sleeper_pid()
        .filter(|_| printed)
        .expect("the shell printed the sleeper's pid");
    drop(server);

    // The leader is reaped by the drop: gone, not a zombie.
    let state = processes::state;
    assert!(state(leader).is_none(), "leader: {:?}", state(leader));
    // The sleeper got SIGKILL too; its reaper is whichever process inherited it.
    let killed = eventually(Duration::from_secs(5), || async {
        state(sleeper).is_none_or(|s| s == 'Z')
    })
    .await;
    assert!(killed, "sleeper still runs");
    assert!(TcpStream::connect(("127.0.0.1", port)).await.is_err());
}

#[tokio::test]
async fn a_server_that_dies_is_reported_with_its_output() {
    let command =
        ServerCommand::new("sh").args(["-c", "echo 'cannot start: no config' >&2; exit 3"]);
    let error = ServerProcess::start_http(&command, "/")
        .await
        .expect_err("the start fails");
    let Error::Startup {
        command,
        reason,
        stderr_tail,
    } = &error
    else {
        panic!("expected a startup error, got {error:?}");
    };
    assert!(
        reason.starts_with("the server exited (exit status: 3) before listening"),
        "{error:?}"
    );
    assert!(command.starts_with("sh -c "), "{error:?}");
    assert_eq!(
        stderr_tail.as_deref(),
        Some("cannot start: no config"),
        "{error:?}"
    );
}

/// Every peer installs (`.ci/run` runs this file first, to install them up front) and its
/// entry point is where the accessor says.
#[test]
fn every_peer_installs() {
    for (what, path) in [
        ("server-everything", peers::server_everything()),
        ("the Python SDK", peers::python()),
        ("the Python SDK 1.x", peers::python_tasks()),
        ("the conformance suite", peers::conformance_suite()),
        ("Node.js 22", peers::node22()),
        (
            "the newest conformance suite",
            peers::conformance_suite_next(),
        ),
        ("Node.js 22 (newest suite)", peers::node22_next()),
    ] {
        assert!(path.exists(), "{what}: {} is missing", path.display());
        println!("{what}: {}", path.display());
    }
}
