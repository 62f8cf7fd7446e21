//! The fuzzer against servers written on the SDKs' high-level servers, which answer a crash
//! in a tool as a tool error (`isError`) and keep the connection: the Python SDK's
//! `MCPServer` (`Error executing tool <name>`) and the TypeScript SDK's `McpServer` (the
//! exception's message). Their planted crashes are found as `crash_as_tool_error`; a tool
//! that answers what no client can read (a lone UTF-16 surrogate) is blamed alone, never the
//! correct tools whose calls were in flight beside it; deliberate tool errors are no finding.
//! File tools that answer the paths they were asked about leak nothing; a server naming its
//! own source file does. A hang is no failure of a tool slow by design that reports progress
//! on other inputs, nor of an open-world tool answered when sent again alone, nor of a call
//! slow now and then but answered in time; any other hang fails.

#![allow(deprecated)] // roots are SEP-2577-deprecated; sessions of 2025-11-25 have them

use std::time::Duration;

use mcp_assured::{
    McpAssured, McpClient,
    model::Root,
    report::{Finding, FindingKind, Report, Status, findings},
};
use mcp_assured_tests::peers;

async fn fuzzed(client: &McpClient, seed: u64, cases: u32) -> Report {
    client
        .fuzz()
        .seed(seed)
        .cases(cases)
        .call_timeout(Duration::from_secs(5))
        .run()
        .await
}

/// The entries of `report` about `tool` that failed or warned.
fn not_passed<'r>(report: &'r Report, tool: &str) -> Vec<&'r mcp_assured::report::Entry> {
    let prefix = format!("fuzz.tools.{tool}");
    report
        .entries()
        .iter()
        .filter(|entry| entry.name == prefix || entry.name.starts_with(&format!("{prefix}.")))
        .filter(|entry| entry.status != Status::Passed)
        .collect()
}

/// The finding of `first_word`, the planted crash: a crash answered as a tool error whose
/// text says `answered`.
#[track_caller]
fn planted_crash<'f>(found: &'f [Finding], report: &Report, answered: &str) -> &'f Finding {
    let crash = found
        .iter()
        .find(|finding| finding.name == "first_word")
        .unwrap_or_else(|| panic!("the planted crash is found: {report}"));
    assert_eq!(crash.kind, FindingKind::CrashAsToolError, "{report}");
    assert!(crash.what.contains(answered), "{}", crash.what);
    crash
}

fn assert_clean(report: &Report, tools: &[&str]) {
    for tool in tools {
        assert!(
            not_passed(report, tool).is_empty(),
            "`{tool}` is correct, or its errors deliberate, yet: {report}"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_crash_the_python_sdks_mcpserver_answers_as_a_tool_error_is_found() {
    let client = McpAssured::client()
        .command(peers::python())
        .arg(peers::python_sdk_crashes_server_script())
        .build()
        .await
        .unwrap();
    let report = fuzzed(&client, 7, 40).await;
    let found = findings(&report);
    let crash = planted_crash(&found, &report, "Error executing tool first_word");
    assert!(!crash.concurrent_only, "{report}");
    let entry = report
        .entry("fuzz.tools.first_word.crash_as_tool_error")
        .unwrap();
    assert_eq!(entry.status, Status::Failed);
    assert!(
        crash
            .reproduce
            .test
            .contains("answer.unwrap().assert().is_success();"),
        "{}",
        crash.reproduce.test
    );
    // `divide` raises a deliberate ToolError on b = 0: `Error executing tool divide: ...`.
    assert_clean(&report, &["shout", "divide"]);
    client.close().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_typescript_sdks_crashes_are_found_and_only_their_tools_blamed() {
    let client = McpAssured::client()
        .command(peers::node())
        .arg(peers::typescript_sdk_crashes_server_script())
        .arg(peers::npm_modules())
        .build()
        .await
        .unwrap();
    let report = fuzzed(&client, 2, 200).await;
    let found = findings(&report);
    planted_crash(&found, &report, "Cannot read properties of undefined");
    let surrogate = found
        .iter()
        .find(|finding| finding.name == "preview")
        .unwrap_or_else(|| panic!("the lone surrogate is found: {report}"));
    assert_eq!(surrogate.kind, FindingKind::BrokenAnswer, "{report}");
    let text = surrogate.arguments["text"].as_str().unwrap();
    assert!(
        text.chars().any(|c| u32::from(c) > 0xFFFF),
        "shrunk to a text with a character outside the BMP: {text:?}"
    );
    // Their calls were in flight when `preview` ended the connection: not blamed.
    assert_clean(&report, &["shout", "lookup"]);
    client.close().await.unwrap();
}

/// server-everything's `trigger-long-running-operation` runs for as long as it is asked
/// (10 s by default) and reports progress at each step: with a 4 s call timeout, a call that
/// keeps reporting is given up to six of them, then cancelled and reported slow (a warning
/// with the progress seen), never a hang. (The seed's first input asks for a step every
/// 1.6 s: 2.4 s of margin for a loaded machine's timers.)
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tool_slow_by_design_that_reports_progress_is_slow_not_hung() {
    let client = McpAssured::client()
        .command(peers::node())
        .arg(peers::server_everything())
        .arg("stdio")
        .build()
        .await
        .unwrap();
    let report = client
        .fuzz()
        .tool("trigger-long-running-operation")
        .seed(42)
        .cases(4)
        .call_timeout(Duration::from_secs(4))
        .run()
        .await;
    assert_eq!(report.failed(), 0, "{report}");
    let slow = report
        .entry("fuzz.tools.trigger-long-running-operation.slow")
        .unwrap_or_else(|| panic!("a call longer than the cap is slow: {report}"));
    assert_eq!(slow.status, Status::Warned, "{report}");
    assert!(
        slow.message.contains("progress notifications"),
        "{}",
        slow.message
    );
    assert!(
        report
            .entry("fuzz.tools.trigger-long-running-operation.hang")
            .is_none(),
        "{report}"
    );
    client.close().await.unwrap();
}

/// File tools answer paths: those under a directory the arguments named, or under the
/// client's roots, are what was asked for, no leak; the server's own source file in an error
/// is one.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn paths_the_caller_named_are_no_leak_and_the_servers_own_source_path_is() {
    let client = McpAssured::client()
        .protocol_version("2025-11-25")
        .command(peers::python())
        .arg(peers::python_file_tools_server_script())
        .roots([Root::new("file:///srv/checkout")])
        .build()
        .await
        .unwrap();
    let report = fuzzed(&client, 3, 20).await;
    assert_clean(&report, &["find_sources", "project_files"]);
    let leak = report
        .entry("fuzz.tools.load_settings.leaked_internals")
        .unwrap_or_else(|| panic!("the server's own source path is a leak: {report}"));
    assert_eq!(leak.status, Status::Failed, "{report}");
    assert!(
        leak.message.contains("file_tools_server.py"),
        "{}",
        leak.message
    );
    // No sentence of the specification is its ground: a rule of ours is, by its id.
    let rule = leak
        .clause
        .as_ref()
        .expect("a failing finding names its ground");
    assert_eq!(
        (rule.spec, rule.section),
        ("mcp-assured rules", "MA-NO-INTERNALS")
    );
    client.close().await.unwrap();
}

/// Fuzzes `tools` of slow_tools_server.py with a 1 s per-call timeout.
async fn fuzzed_slow_tools(tools: &[&str], seed: u64) -> Report {
    let client = McpAssured::client()
        .command(peers::python())
        .arg(peers::python_slow_tools_server_script())
        .build()
        .await
        .unwrap();
    let mut fuzz = client
        .fuzz()
        .seed(seed)
        .cases(20)
        .call_timeout(Duration::from_secs(1));
    for tool in tools {
        fuzz = fuzz.tool(*tool);
    }
    let report = fuzz.run().await;
    client.close().await.unwrap();
    report
}

/// `long_job` sleeps `duration / steps` before each progress notification: a long
/// `duration` sends neither answer nor progress within the per-call timeout, yet the server
/// answers a ping and the same tool reported progress on shorter jobs: slow by design (a
/// warning), not hung. `stuck_search`, which never reports progress, still hangs (a failure).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tool_that_reports_progress_elsewhere_is_slow_by_design_where_it_sent_none_in_time() {
    let report = fuzzed_slow_tools(&["long_job", "stuck_search"], 1).await;
    assert!(
        report.entry("fuzz.tools.long_job.hang").is_none(),
        "{report}"
    );
    assert!(
        not_passed(&report, "long_job")
            .iter()
            .all(|entry| entry.status == Status::Warned),
        "{report}"
    );
    let slow = report
        .entry("fuzz.tools.long_job.slow")
        .unwrap_or_else(|| panic!("a job longer than the timeout is slow: {report}"));
    // "slow by design, not hung"; or, when a job also outlasted the cap on a call's time
    // while reporting progress, that warning ("slow by design, or slower than it should be").
    assert!(slow.message.contains("slow by design"), "{}", slow.message);
    let hang = report
        .entry("fuzz.tools.stuck_search.hang")
        .unwrap_or_else(|| panic!("the planted hang is found: {report}"));
    assert_eq!(hang.status, Status::Failed, "{report}");
}

/// An open-world tool (`openWorldHint: true`) waits on systems outside the server: a hang of
/// `fetch_page`'s, whose first call waits on one that never answers, is sent again alone and
/// answered, so it is a warning naming the outside world, not a failure; `fetch_unreachable`
/// hangs every time alone too, and stays a hang.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_open_world_tool_that_hung_once_but_answers_alone_is_a_warning() {
    let report = fuzzed_slow_tools(&["fetch_page", "fetch_unreachable"], 1).await;
    let once = not_passed(&report, "fetch_page");
    assert_eq!(once.len(), 1, "{report}");
    assert_eq!(once[0].status, Status::Warned, "{report}");
    assert!(
        once[0].message.contains("open-world"),
        "{}",
        once[0].message
    );
    let hang = report
        .entry("fuzz.tools.fetch_unreachable.hang")
        .unwrap_or_else(|| panic!("a tool that never answers hangs: {report}"));
    assert_eq!(hang.status, Status::Failed, "{report}");
}

/// `slow_lookup` takes 0.6 s on every tenth call, far past its usual answers: such a call
/// is suspected of hanging, and its input shrunk as a hang while it waits, but it answers
/// within the 1 s timeout, so nothing of that is reported. `stuck_search`, which never
/// answers, is still a hang, shrunk to the smallest input.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_call_slow_now_and_then_but_answered_in_time_is_no_hang() {
    let report = fuzzed_slow_tools(&["slow_lookup", "stuck_search"], 1).await;
    assert!(not_passed(&report, "slow_lookup").is_empty(), "{report}");
    let hang = findings(&report)
        .into_iter()
        .find(|finding| finding.name == "stuck_search")
        .unwrap_or_else(|| panic!("the planted hang is found: {report}"));
    assert_eq!(hang.kind, FindingKind::Hang, "{report}");
    assert_eq!(hang.arguments, serde_json::json!({"query": ""}), "{report}");
}
