//! What the companion's tests share: calls of the companion's tools that check the envelope.
//! (What other packages' tests share too, such as the example server to connect the
//! companion to, is in `mcp-assured-tests`.)

#![allow(dead_code)] // each test file uses part of this

use std::process::{Command, Output};

use mcp_assured::McpClient;
use serde_json::{Value, json};

/// Runs the `mcp-assured` binary with `args` and `env`, without colour and without the
/// environment variables that would give it credentials or trust behind the test's back.
/// A `--json` output of `check`, `fuzz`, `lint`, `bench`, `diff`, `coverage` or `list` must be valid
/// against the published schema (`schemas/report.schema.json`).
pub fn run(args: &[&str], env: &[(&str, &str)]) -> Output {
    let output = run_unchecked(args, env);
    mcp_assured_tests::schemas::assert_json_output(args, &output.stdout);
    output
}

/// [`run`], without holding a `--json` output to the schema (for output a test breaks on
/// purpose).
pub fn run_unchecked(args: &[&str], env: &[(&str, &str)]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_mcp-assured"))
        .args(args)
        .env("NO_COLOR", "1")
        .env_remove("SSL_CERT_FILE")
        .env_remove("SSL_CERT_DIR")
        .env_remove("MCP_ASSURED_CLIENT_SECRET")
        .env_remove("MCP_ASSURED_BEARER_TOKEN")
        .envs(env.iter().copied())
        .output()
        .expect("run mcp-assured")
}

/// What a run printed, stdout then stderr.
pub fn printed(output: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    )
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

/// A directory of the test's own under the temp dir, `mcp-assured-<name>-<free port>` (a
/// free port is unique among the tests running at once); the test removes it.
pub fn scratch(name: &str) -> std::path::PathBuf {
    let port = mcp_assured::fixture::free_port().expect("a free port");
    let dir = std::env::temp_dir().join(format!("mcp-assured-{name}-{port}"));
    std::fs::create_dir_all(&dir).expect("create the scratch directory");
    dir
}

/// Renders `page` in headless Chromium; the browser must have asked for the page and
/// nothing else, and printed it.
#[track_caller]
pub fn rendered(page: &std::path::Path) -> String {
    let rendered = mcp_assured_tests::browser::render(page);
    let asked: Vec<&String> = rendered
        .requests
        .iter()
        .filter(|request| request.as_str() != "GET /report.html (report.test)")
        .collect();
    assert!(
        asked.is_empty(),
        "the page made the browser request more than itself: {asked:?}"
    );
    assert!(
        !rendered.requests.is_empty(),
        "the browser never asked for the page"
    );
    assert!(
        rendered.pdf.starts_with(b"%PDF") && rendered.pdf.len() > 5_000,
        "printing gave no PDF ({} bytes)",
        rendered.pdf.len()
    );
    assert!(
        rendered.dom.contains("<h1>mcp-assured "),
        "{}",
        rendered.dom
    );
    rendered.dom
}
