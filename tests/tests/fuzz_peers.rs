//! The fuzzer on servers this repository did not write: server-everything (TypeScript SDK)
//! and the Python SDK 2.3 peer, over stdio, with their findings pinned. Each is a real
//! deviation of the server's, graded by the specification's words: none breaks a MUST, so
//! each warns and the run passes.

use std::time::Duration;

use mcp_assured::{
    McpClient,
    fuzz::{self, FindingKind},
    mcp_test,
    report::{Level, Status},
};
use mcp_assured_tests::peers;

/// `(subject, name, kind, status)` of every finding.
fn found(report: &mcp_assured::report::Report) -> Vec<(String, String, FindingKind, Status)> {
    report
        .entries()
        .iter()
        .filter_map(|entry| {
            let finding = fuzz::finding_of(entry)?;
            Some((finding.subject, finding.name, finding.kind, entry.status))
        })
        .collect()
}

#[mcp_test(
    server = command(peers::node(), peers::server_everything(), "stdio"),
    timeout = "120s"
)]
async fn server_everything_answers_unknown_resources_and_bad_prompt_arguments_with_internal_errors(
    client: McpClient,
) {
    let report = client
        .fuzz()
        .seed(3)
        .cases(50)
        // Fetches a URL from the internet by default, and runs 10 s by default: both hang
        // past any short timeout, as designed.
        .exclude_tool("gzip-file-as-resource")
        .exclude_tool("trigger-long-running-operation")
        .call_timeout(Duration::from_secs(2))
        .run()
        .await;
    println!("{report}");
    let warned = Status::Warned;
    let jsonrpc_error = FindingKind::ErrorOnValidInput;
    assert_eq!(
        found(&report),
        [
            (
                "template".into(),
                "demo://resource/dynamic/text/{resourceId}".into(),
                jsonrpc_error,
                warned
            ),
            (
                "template".into(),
                "demo://resource/dynamic/blob/{resourceId}".into(),
                jsonrpc_error,
                warned
            ),
            (
                "prompt".into(),
                "resource-prompt".into(),
                jsonrpc_error,
                warned
            ),
        ],
        "{report}"
    );
    assert!(report.is_success(), "{report}");
    // "Unknown resource" as -32603, where 2025-11-25 says -32002 (a SHOULD).
    let text = report
        .entry("fuzz.templates.demo://resource/dynamic/text/{resourceId}.jsonrpc_error")
        .unwrap();
    assert!(text.message.contains("-32603"), "{}", text.message);
    assert_eq!(text.clause.as_ref().unwrap().level, Level::Should);
}

#[mcp_test(
    server = command(peers::python(), peers::python_server_script()),
    timeout = "120s"
)]
async fn the_python_sdk_answers_a_missing_prompt_argument_with_an_internal_error(
    client: McpClient,
) {
    let report = client
        .fuzz()
        .seed(3)
        .cases(50)
        .call_timeout(Duration::from_secs(2))
        .run()
        .await;
    println!("{report}");
    assert_eq!(
        found(&report),
        [(
            "prompt".into(),
            "summarize".into(),
            FindingKind::InternalError,
            Status::Warned
        )],
        "{report}"
    );
    let finding = &fuzz::findings(&report)[0];
    assert_eq!(finding.arguments, serde_json::json!({}), "{finding:#?}");
    assert!(report.is_success(), "{report}");
}
