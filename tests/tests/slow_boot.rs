//! Servers slow to boot are reached with the default settings (issue 30): a server on the
//! Python SDK 2.3 (both eras on one stdio loop: the first request it reads decides) and one
//! on the TypeScript SDK (server-everything), each behind a wrapper that sleeps
//! [`BOOT_DELAY`] before it starts, over stdio and streamable HTTP, on the revision each
//! negotiates by default and on 2025-11-25 pinned, under `#[mcp_test]` and the plain
//! builder. The wait for their first answer is start-up, not the 3 s of the probe's
//! `discover_timeout`.

use std::time::{Duration, Instant};

use mcp_assured::{McpAssured, McpClient, mcp_test};
use mcp_assured_tests::peers;
use serde_json::json;

/// Longer than the probe's `discover_timeout` (3 s), the wait that used to give up on them.
const BOOT_DELAY: Duration = Duration::from_secs(10);

/// `sh -c SLEEP_THEN_EXEC program args..`: sleeps [`BOOT_DELAY`], then becomes the program.
const SLEEP_THEN_EXEC: &str = r#"sleep 10; exec "$0" "$@""#;

/// Calls a tool and checks it waited for the boot: what a test of a slow server does.
async fn echoes_after_the_boot(client: &McpClient, tool: &str, expected: &str) {
    let echoed = client
        .call_tool(tool, json!({"message": "after a slow boot"}))
        .await
        .unwrap();
    assert_eq!(echoed.text(), expected);
    client.ping().await.unwrap();
}

#[mcp_test(
    server = command("sh", "-c", SLEEP_THEN_EXEC, peers::python(), peers::python_server_script()),
    transport = [stdio, http(args("--transport", "streamable-http", "--port", "{port}"))],
    timeout = "120s",
)]
async fn a_slow_python_sdk_server_speaks_2026_07_28_with_the_defaults(client: McpClient) {
    assert_eq!(client.protocol_version(), "2026-07-28");
    echoes_after_the_boot(&client, "echo", "after a slow boot").await;
}

#[mcp_test(
    protocol = "2025-11-25",
    server = command("sh", "-c", SLEEP_THEN_EXEC, peers::python(), peers::python_server_script()),
    transport = [stdio, http(args("--transport", "streamable-http", "--port", "{port}"))],
    timeout = "120s",
)]
async fn a_slow_python_sdk_server_speaks_a_pinned_2025_11_25(client: McpClient) {
    assert_eq!(client.protocol_version(), "2025-11-25");
    echoes_after_the_boot(&client, "echo", "after a slow boot").await;
}

#[mcp_test(
    server = command("sh", "-c", SLEEP_THEN_EXEC, peers::node(), peers::server_everything()),
    transport = [stdio(args("stdio")), http(args("streamableHttp"))],
    timeout = "120s",
)]
async fn a_slow_typescript_sdk_server_is_reached_with_the_defaults(client: McpClient) {
    assert_eq!(client.protocol_version(), "2025-11-25");
    echoes_after_the_boot(&client, "echo", "Echo: after a slow boot").await;
}

#[mcp_test(
    protocol = "2025-11-25",
    server = command("sh", "-c", SLEEP_THEN_EXEC, peers::node(), peers::server_everything()),
    transport = [stdio(args("stdio")), http(args("streamableHttp"))],
    timeout = "120s",
)]
async fn a_slow_typescript_sdk_server_speaks_a_pinned_2025_11_25(client: McpClient) {
    assert_eq!(client.protocol_version(), "2025-11-25");
    echoes_after_the_boot(&client, "echo", "Echo: after a slow boot").await;
}

/// The builder's defaults (start-up 60 s), not `#[mcp_test]`'s.
#[tokio::test]
async fn the_builder_waits_for_a_slow_boot_with_its_defaults() {
    let python = peers::python();
    let script = peers::python_server_script();
    let started = Instant::now();
    let client = McpAssured::client()
        .command("sh")
        .args([
            "-c".as_ref(),
            SLEEP_THEN_EXEC.as_ref(),
            python.as_os_str(),
            script.as_os_str(),
        ])
        .build()
        .await
        .unwrap();
    assert!(started.elapsed() >= BOOT_DELAY, "{:?}", started.elapsed());
    assert_eq!(client.protocol_version(), "2026-07-28");
    echoes_after_the_boot(&client, "echo", "after a slow boot").await;
    client.close().await.unwrap();
}
