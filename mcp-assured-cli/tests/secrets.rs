//! Secrets never leave: a bearer token and a custom auth header are absent from `Debug`,
//! errors, logs (at TRACE), snapshots, the companion's answers and log, and the commands'
//! output — whether the server accepts them or answers 401.

mod support;

use std::{
    io::Write,
    net::SocketAddr,
    sync::{Arc, Mutex, OnceLock, PoisonError},
};

use mcp_assured::{McpAssured, McpClient, assert_tool_snapshot, mcp_test};
use mcp_assured_examples::{HttpOptions, serve::serve_streamable_http};
use mcp_assured_tests::faults::{Fault, FaultServer, http};
use serde_json::{Value, json};

const TOKEN: &str = "tok-SECRET-4f9a1c77";
const HEADER: &str = "X-Api-Key";
const HEADER_VALUE: &str = "hdr-SECRET-8b2e7d55";
/// A secret given with the wrong type, which serde quotes in its error.
const NUMERIC_SECRET: u64 = 73_915_286_404;

#[track_caller]
fn assert_clean(what: &str, text: &str) {
    for secret in [TOKEN, HEADER_VALUE, "SECRET", &NUMERIC_SECRET.to_string()] {
        assert!(
            !text.contains(secret),
            "{what} contains the secret `{secret}`:\n{text}"
        );
    }
}

/// Two servers on a runtime of their own (so their logs are not captured with ours):
/// the example server requiring [`TOKEN`], and the fault server answering 401 to everything.
fn servers() -> &'static (String, String) {
    static SERVERS: OnceLock<(String, String)> = OnceLock::new();
    SERVERS.get_or_init(|| {
        let (sender, receiver) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let runtime = tokio::runtime::Runtime::new().unwrap();
            runtime.block_on(async move {
                let protected = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
                let refusing = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
                let urls = (
                    url(protected.local_addr().unwrap()),
                    url(refusing.local_addr().unwrap()),
                );
                let options = HttpOptions {
                    bearer_token: Some(TOKEN.to_owned()),
                    ..HttpOptions::default()
                };
                tokio::spawn(serve_streamable_http(protected, options));
                tokio::spawn(http::serve(
                    refusing,
                    FaultServer::new(),
                    Fault::Unauthorized,
                ));
                sender.send(urls).unwrap();
                std::future::pending::<()>().await;
            });
        });
        receiver.recv().unwrap()
    })
}

/// `url` with a user and the token as password in it.
fn with_password(url: &str) -> String {
    url.replace("http://", &format!("http://ada:{TOKEN}@"))
}

fn url(address: SocketAddr) -> String {
    format!("http://{address}/mcp")
}

/// Everything `tracing` writes, at every level, kept in memory.
#[derive(Clone, Default)]
struct Captured(Arc<Mutex<Vec<u8>>>);

impl Write for Captured {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .extend_from_slice(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Captured {
    fn text(&self) -> String {
        String::from_utf8_lossy(&self.0.lock().unwrap_or_else(PoisonError::into_inner)).into_owned()
    }
}

/// The library: builder, client, errors, logs and a snapshot of the error.
#[tokio::test]
async fn the_library_never_shows_the_secrets() {
    let (protected, refusing) = servers();
    let logs = Captured::default();
    let writer = logs.clone();
    let subscriber = tracing_subscriber::fmt()
        .with_max_level(tracing::Level::TRACE)
        .with_writer(move || writer.clone())
        .with_ansi(false)
        .finish();
    let _capture = tracing::subscriber::set_default(subscriber);

    let builder = McpAssured::client()
        .base_uri(protected)
        .bearer_token(TOKEN)
        .header(HEADER, HEADER_VALUE);
    assert_clean("the builder's Debug", &format!("{builder:?}"));
    let client = builder.build().await.unwrap();
    assert_clean("the client's Debug", &format!("{client:?}"));
    let echoed = client
        .call_tool("echo", json!({"message": "hi"}))
        .await
        .unwrap();
    assert_clean("a tool result", &format!("{echoed:?}"));
    let error = client
        .call_tool("no_such_tool", json!({}))
        .await
        .unwrap_err();
    assert_clean("a JSON-RPC error", &format!("{error} {error:?}"));
    client.close().await.unwrap();

    for (name, builder) in [
        (
            "bearer",
            McpAssured::client().base_uri(refusing).bearer_token(TOKEN),
        ),
        (
            "header",
            McpAssured::client()
                .base_uri(refusing)
                .header(HEADER, HEADER_VALUE),
        ),
        (
            "basic",
            McpAssured::client()
                .base_uri(refusing)
                .basic_auth("user", TOKEN),
        ),
        (
            "sse",
            McpAssured::client()
                .base_uri(refusing.replace("/mcp", "/sse"))
                .bearer_token(TOKEN),
        ),
    ] {
        let error = builder.build().await.unwrap_err();
        assert_eq!(error.http_status(), Some(401), "{error}");
        assert_clean("a 401 error", &format!("{error} {error:?}"));
        let snapshot = format!("unauthorized_{name}");
        mcp_assured::snapshot::test_settings(None).bind(|| {
            insta::assert_snapshot!(snapshot.as_str(), error.to_string());
        });
        let file = format!(
            "{}/tests/snapshots/secrets__{snapshot}.snap",
            env!("CARGO_MANIFEST_DIR")
        );
        assert_clean("the snapshot", &std::fs::read_to_string(file).unwrap());
    }

    let logs = logs.text();
    assert!(
        logs.contains("TRACE") || logs.contains("DEBUG"),
        "nothing was logged, so nothing was checked"
    );
    assert_clean("the logs", &logs);
}

/// The companion: its answers (success and failure) and its own log at TRACE.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_companion_never_shows_the_secrets() {
    let (protected, refusing) = servers();
    let log = std::env::temp_dir().join(format!("companion-secrets-{}.log", std::process::id()));
    let companion = McpAssured::client()
        .command("sh")
        .args([
            "-c",
            r#"exec "$0" serve 2>"$1""#,
            env!("CARGO_BIN_EXE_mcp-assured"),
            log.to_str().unwrap(),
        ])
        .env("RUST_LOG", "trace")
        .build()
        .await
        .unwrap();
    let mut answers = Vec::new();
    let secrets = json!({"bearer_token": TOKEN, "headers": {HEADER: HEADER_VALUE}});
    let with_secrets = |mut args: Value| {
        args.as_object_mut()
            .unwrap()
            .extend(secrets.as_object().unwrap().clone());
        args
    };
    for (tool, args) in [
        ("connect_to_server", with_secrets(json!({"url": protected}))),
        ("get_connection_status", json!({})),
        ("list_connections", json!({})),
        ("list_tools", json!({})),
        (
            "call_tool",
            json!({"name": "echo", "arguments": {"message": "hi"}}),
        ),
        (
            "call_tool",
            json!({"name": "no_such_tool", "arguments": {}}),
        ),
        ("check_server", json!({})),
        (
            "connect_to_server",
            with_secrets(json!({"url": refusing, "name": "refused"})),
        ),
        ("list_connections", json!({})),
        // Arguments the companion refuses, which it echoes with the reason.
        ("connect_to_server", with_secrets(json!({"url": 1}))),
        (
            "connect_to_server",
            with_secrets(json!({"url": protected, "timeout_ms": "soon"})),
        ),
        (
            "connect_to_server",
            json!({"url": protected, "headers": format!("{HEADER}: {HEADER_VALUE}")}),
        ),
        (
            "connect_to_server",
            json!({"url": protected, "bearer_token": [TOKEN]}),
        ),
        (
            "connect_to_server",
            json!({"command": "sh", "args": 5, "env": {"API_TOKEN": TOKEN}}),
        ),
        (
            "connect_to_server",
            json!({"command": "sh", "env": {"API_PIN": NUMERIC_SECRET}}),
        ),
        (
            "connect_to_server",
            with_secrets(json!({"url": "not a url"})),
        ),
        // A user and password in the URL: sent as basic auth, never shown.
        (
            "connect_to_server",
            json!({"url": with_password(refusing), "name": "userinfo"}),
        ),
    ] {
        let answer = companion.call_tool(tool, args).await.unwrap();
        answers.push((tool, answer));
    }
    assert_eq!(
        answers[0].1.structured_content.as_ref().unwrap()["success"],
        json!(true),
        "{:?}",
        answers[0]
    );
    assert_eq!(
        answers[7].1.structured_content.as_ref().unwrap()["success"],
        json!(false),
        "{:?}",
        answers[7]
    );
    for (tool, answer) in &answers[9..] {
        let envelope = answer.structured_content.as_ref().unwrap();
        assert_eq!(envelope["success"], json!(false), "{tool}: {envelope}");
    }
    // Refused arguments come back, with the credentials' values replaced.
    let refused = answers[9].1.structured_content.as_ref().unwrap();
    assert_eq!(
        refused["error"]["type"],
        json!("invalid_arguments"),
        "{refused}"
    );
    assert_eq!(
        refused["error"]["details"]["arguments"]["headers"][HEADER],
        json!("[redacted]"),
        "{refused}"
    );
    for (tool, answer) in &answers {
        assert_clean(&format!("the answer of {tool}"), &format!("{answer:?}"));
    }
    companion.close().await.unwrap();
    let log = std::fs::read_to_string(&log).unwrap();
    assert!(
        log.contains("TRACE") || log.contains("DEBUG"),
        "the companion logged nothing"
    );
    assert_clean("the companion's log", &log);
}

/// Runs `command` with logging at TRACE; returns its output and all it printed.
fn run(command: &mut std::process::Command) -> (std::process::Output, String) {
    let output = command.env("RUST_LOG", "trace").output().unwrap();
    let printed = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    (output, printed)
}

/// The commands print results and errors, never credentials.
#[test]
fn the_commands_never_show_the_secrets() {
    let (protected, refusing) = servers();
    let header = format!("{HEADER}: {HEADER_VALUE}");
    let with_token = ["--bearer-token", TOKEN, "-H", &header];
    let in_url = with_password(refusing);
    for (url, credentials, succeeds) in [
        (protected, &with_token[..], true),
        (refusing, &with_token[..], false),
        // The password travels in the URL.
        (&in_url, &with_token[2..], false),
    ] {
        for command in [
            vec!["list"],
            vec!["call", "echo", "--arg", "message=hi"],
            vec!["check"],
        ] {
            let (output, printed) = run(std::process::Command::new(env!(
                "CARGO_BIN_EXE_mcp-assured"
            ))
            .args(&command)
            .args(credentials)
            .arg(url));
            if succeeds && command[0] != "check" {
                assert!(output.status.success(), "{command:?}: {printed}");
            } else if !succeeds {
                assert!(!output.status.success(), "{command:?}: {printed}");
                assert!(printed.contains("401"), "{command:?}: {printed}");
            }
            assert_clean(&format!("`mcp-assured {}`", command.join(" ")), &printed);
        }
    }
}

/// `#[mcp_test]` with credentials: tests that fail (at set-up, on a 401, and in the body) and
/// a snapshot. `the_mcp_test_reports_never_show_the_secrets` runs the failing ones again in a
/// process of their own to read what they print.
mod with_mcp_test {
    use super::*;

    #[mcp_test(protocol = "2025-11-25", server = url(servers().0.clone()), bearer_token = TOKEN, headers("X-Api-Key" = HEADER_VALUE))]
    async fn snapshots_a_result(client: McpClient) {
        let result = client
            .call_tool("echo", json!({"message": "hi"}))
            .await
            .unwrap();
        assert_tool_snapshot!(result);
    }

    #[mcp_test(server = url(servers().1.clone()), bearer_token = TOKEN, headers("X-Api-Key" = HEADER_VALUE))]
    #[should_panic(expected = "401")]
    pub async fn is_refused(_client: McpClient) {
        unreachable!("the server refuses every request");
    }

    #[mcp_test(server = url(servers().0.clone()), bearer_token = TOKEN, headers("X-Api-Key" = HEADER_VALUE))]
    #[should_panic(expected = "deliberate failure")]
    pub async fn fails(client: McpClient) {
        let error = client.call_tool("fail", json!({})).await;
        panic!("deliberate failure after {error:?}");
    }
}

#[test]
fn the_mcp_test_reports_never_show_the_secrets() {
    for (test, expected) in [
        ("with_mcp_test::is_refused", "401"),
        ("with_mcp_test::fails", "deliberate failure"),
    ] {
        let (output, printed) = run(std::process::Command::new(std::env::current_exe().unwrap())
            .args(["--exact", test, "--nocapture", "--test-threads", "1"]));
        assert!(output.status.success(), "{test}: {printed}");
        assert!(printed.contains(expected), "{test}: {printed}");
        assert_clean(&format!("the output of {test}"), &printed);
    }
    let snapshots = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/snapshots");
    let snapshot = std::fs::read_dir(&snapshots)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .find(|path| path.to_string_lossy().contains("snapshots_a_result"))
        .expect("the snapshot of with_mcp_test::snapshots_a_result is committed");
    assert_clean("the snapshot", &std::fs::read_to_string(snapshot).unwrap());
}
