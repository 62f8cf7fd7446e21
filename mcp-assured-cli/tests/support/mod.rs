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
