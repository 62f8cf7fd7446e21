//! `wire.schema` and `McpClient::wire_violations`: what a server sends, held to the official
//! JSON schema of the revision spoken. The fault server without `resultType` on 2026-07-28
//! (results, or its `server/discover` answer) fails by name; the same messages are valid
//! 2025-11-25, and the fault server that keeps the revision passes.

use mcp_assured::{McpClient, report::Status};
use mcp_assured_tests::{faults::Fault, workspace_binary};
use serde_json::json;

use crate::support::stdio;

async fn speaking(fault: Fault, revision: &str) -> McpClient {
    let client = stdio(fault, fault.name())
        .protocol_version(revision)
        .build()
        .await
        .unwrap_or_else(|error| panic!("{fault} on {revision} is reached: {error}"));
    assert_eq!(client.protocol_version(), revision);
    client
}

/// Runs the checks and returns `wire.schema`'s status and message.
async fn wire_check(client: &McpClient) -> (Status, String) {
    let report = client.check().await;
    let entry = report.entry("wire.schema").expect("wire.schema runs");
    (entry.status, entry.message.clone())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn results_without_result_type_break_the_2026_schema() {
    let client = speaking(Fault::ResultsWithoutResultType, "2026-07-28").await;
    client
        .call_tool("echo", json!({"message": "hi"}))
        .await
        .expect("our client reads it, as the schema tells clients to");
    let found = client.wire_violations();
    assert_eq!(found.len(), 1, "{found:#?}");
    assert_eq!(found[0].method, "tools/call");
    assert_eq!(found[0].definition, "CallToolResult");
    assert_eq!(found[0].pointer, "/result");
    assert!(
        found[0]
            .schema_says
            .as_deref()
            .is_some_and(|words| words.contains("MUST include this field")),
        "{found:#?}"
    );
    let (status, message) = wire_check(&client).await;
    assert_eq!(status, Status::Failed, "{message}");
    assert!(
        message.contains(
            r#"tools/list at /result: "resultType" is a required property (ListToolsResult)"#
        ) && message.contains("tools/call at /result"),
        "{message}"
    );
    client.close().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_same_results_are_valid_2025_11_25() {
    let client = speaking(Fault::ResultsWithoutResultType, "2025-11-25").await;
    let (status, message) = wire_check(&client).await;
    assert_eq!(status, Status::Passed, "{message}");
    assert!(
        message.contains("conform to the 2025-11-25 schema"),
        "{message}"
    );
    assert!(client.wire_violations().is_empty());
    client.close().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_that_keeps_the_revision_passes() {
    let client = speaking(Fault::None, "2026-07-28").await;
    let (status, message) = wire_check(&client).await;
    assert_eq!(status, Status::Passed, "{message}");
    client.close().await.unwrap();
}

/// A `server/discover` answer without `resultType`: reached on 2026-07-28, pinned or
/// negotiated, and failed by name, never "unreachable".
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_discover_result_without_result_type_is_reached_and_failed_by_name() {
    for negotiated in [false, true] {
        let builder = stdio(
            Fault::DiscoverWithoutResultType,
            "discover-without-result-type",
        );
        let builder = if negotiated {
            builder.newest_protocol()
        } else {
            builder.protocol_version("2026-07-28")
        };
        let client = builder.build().await.expect("reached");
        assert_eq!(client.protocol_version(), "2026-07-28");
        let (status, message) = wire_check(&client).await;
        assert_eq!(status, Status::Failed, "{message}");
        assert!(
            message.contains(
                r#"server/discover at /result: "resultType" is a required property (DiscoverResult)"#
            ),
            "{message}"
        );
        client.close().await.unwrap();
    }
}

/// The command line: exit 1 (a check failed), not 3 (unreachable).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_cli_fails_the_check_instead_of_calling_the_server_unreachable() {
    let output = tokio::process::Command::new(workspace_binary("mcp-assured-cli", "mcp-assured"))
        .args([
            "check",
            "--no-server-tests",
            "--protocol",
            "2026-07-28",
            "--",
        ])
        .arg(crate::support::FAULT_SERVER)
        .args(["--fault", "discover-without-result-type"])
        .output()
        .await
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(1), "{stdout}");
    assert!(stdout.contains("FAIL wire.schema"), "{stdout}");
}

/// A fuzzed answer that breaks the schema is a finding of its own, failed by the clause.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fuzz_finds_a_result_that_breaks_the_schema() {
    let client = speaking(Fault::ResultsWithoutResultType, "2026-07-28").await;
    let report = client.fuzz().tool("echo").cases(5).seed(1).run().await;
    let entry = report
        .entry("fuzz.tools.echo.wire_schema")
        .unwrap_or_else(|| panic!("no wire_schema finding: {report}"));
    assert_eq!(entry.status, Status::Failed, "{report}");
    assert!(
        entry
            .message
            .contains(r#""resultType" is a required property (CallToolResult of 2026-07-28)"#),
        "{}",
        entry.message
    );
    assert!(entry.clause.is_some(), "grounded in a clause");
    let same_on_2025 = speaking(Fault::ResultsWithoutResultType, "2025-11-25").await;
    let report = same_on_2025
        .fuzz()
        .tool("echo")
        .cases(5)
        .seed(1)
        .run()
        .await;
    assert!(
        report.entry("fuzz.tools.echo.wire_schema").is_none(),
        "{report}"
    );
}
