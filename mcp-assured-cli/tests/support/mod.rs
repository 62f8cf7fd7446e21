//! What the companion's tests share: target servers to connect the companion to, and calls
//! of the companion's tools that check the envelope.

#![allow(dead_code)] // each test file uses part of this

use std::{
    path::PathBuf,
    process::Command,
    sync::{Mutex, OnceLock},
};

use mcp_assured::{
    McpClient,
    fixture::{BoxError, Fixture, FixtureContext},
};
use mcp_assured_examples::{HttpOptions, serve::serve_streamable_http};
use serde_json::{Value, json};

/// The example server on a loopback port of the test's runtime, over streamable HTTP;
/// `{example}` is its `/mcp` URL.
#[derive(Debug)]
pub struct ExampleHttp {
    pub url: String,
}

impl Fixture for ExampleHttp {
    async fn setup(ctx: &mut FixtureContext<'_>) -> Result<Self, BoxError> {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
        let url = format!("http://{}/mcp", listener.local_addr()?);
        let task = tokio::spawn(serve_streamable_http(listener, HttpOptions::default()));
        ctx.defer(async move { task.abort() });
        Ok(Self { url })
    }

    fn placeholder(&self) -> Option<String> {
        Some(self.url.clone())
    }
}

/// The example server's binary, for stdio targets.
///
/// `cargo test --workspace` builds it (for the example package's own tests) before any test
/// runs; when only this package is tested, it is built here, in a target directory of its
/// own so as not to wait on the lock of the `cargo test` that runs us.
pub fn example_server_binary() -> PathBuf {
    static BINARY: OnceLock<PathBuf> = OnceLock::new();
    static BUILDING: Mutex<()> = Mutex::new(());
    BINARY
        .get_or_init(|| {
            let _one_at_a_time = BUILDING.lock();
            let target = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
                .parent()
                .expect("CARGO_TARGET_TMPDIR is inside the target directory")
                .to_owned();
            let profile = if cfg!(debug_assertions) {
                "debug"
            } else {
                "release"
            };
            let built = target.join(profile).join("example-server");
            if built.exists() {
                return built;
            }
            let own = target.join("companion-test-servers");
            let mut cargo = Command::new(env!("CARGO"));
            cargo
                .args([
                    "build",
                    "--quiet",
                    "-p",
                    "mcp-assured-examples",
                    "--bin",
                    "example-server",
                ])
                .arg("--target-dir")
                .arg(&own);
            if profile == "release" {
                cargo.arg("--release");
            }
            let status = cargo.status().expect("run cargo to build example-server");
            assert!(status.success(), "building example-server failed: {status}");
            own.join(profile).join("example-server")
        })
        .clone()
}

/// Calls a companion tool that must succeed; returns its envelope.
#[track_caller]
pub fn assert_success(envelope: &Value) {
    assert_eq!(
        envelope["success"],
        json!(true),
        "expected success, got:\n{}",
        serde_json::to_string_pretty(envelope).unwrap_or_default()
    );
}

/// The envelope of a companion tool call (structured content), whatever it says.
pub async fn envelope(client: &McpClient, tool: &str, args: Value) -> Value {
    let result = client
        .call_tool(tool, args)
        .await
        .unwrap_or_else(|error| panic!("calling the companion's `{tool}` failed: {error}"));
    let envelope = result
        .structured_content
        .clone()
        .unwrap_or_else(|| panic!("`{tool}` answered without structured content: {result:?}"));
    // The text block is the same envelope, for clients that read only text.
    let text: Value = serde_json::from_str(&result.text()).expect("the text is the JSON envelope");
    assert_eq!(text, envelope);
    assert_eq!(result.is_error, Some(envelope["success"] != json!(true)));
    envelope
}

/// Calls a companion tool that must succeed; returns its envelope.
pub async fn ok(client: &McpClient, tool: &str, args: Value) -> Value {
    let envelope = envelope(client, tool, args).await;
    assert_success(&envelope);
    envelope
}

/// Calls a companion tool that must fail with `error_type`; returns its envelope.
pub async fn fails(client: &McpClient, tool: &str, args: Value, error_type: &str) -> Value {
    let envelope = envelope(client, tool, args).await;
    assert_eq!(
        envelope["error"]["type"],
        json!(error_type),
        "expected a `{error_type}` error, got:\n{}",
        serde_json::to_string_pretty(&envelope).unwrap_or_default()
    );
    assert_eq!(envelope["success"], json!(false));
    assert!(
        envelope["error"]["message"]
            .as_str()
            .is_some_and(|m| !m.is_empty())
    );
    assert!(
        envelope["error"]["suggestion"]
            .as_str()
            .is_some_and(|s| !s.is_empty())
    );
    assert!(envelope["metadata"]["request_time_ms"].is_u64());
    envelope
}

/// The state letter (`R`, `S`, `Z`, ..) and parent pid of a process, from `/proc/<pid>/stat`;
/// `None` once it has been reaped.
fn process_state(pid: u32) -> Option<(char, u32)> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // `pid (comm) state ppid ..`: comm may hold spaces and parentheses, so split after the last `)`.
    let mut fields = stat[stat.rfind(')')? + 1..].split_whitespace();
    let state = fields.next()?.chars().next()?;
    let parent = fields.next()?.parse().ok()?;
    Some((state, parent))
}

/// Asserts that `pid` runs: it exists and is not a zombie.
#[track_caller]
pub fn assert_running(pid: u32) {
    match process_state(pid) {
        Some((state, _)) if state != 'Z' => {}
        Some(_) => panic!("process {pid} has exited (a zombie, not yet reaped)"),
        None => panic!("process {pid} has exited"),
    }
}

/// The processes whose parent is `pid`, zombies included (a child not yet reaped keeps its
/// parent).
pub fn children_of(pid: u32) -> Vec<u32> {
    std::fs::read_dir("/proc")
        .map(|entries| {
            entries
                .filter_map(|entry| entry.ok()?.file_name().to_str()?.parse::<u32>().ok())
                .filter(|&child| process_state(child).is_some_and(|(_, parent)| parent == pid))
                .collect()
        })
        .unwrap_or_default()
}
