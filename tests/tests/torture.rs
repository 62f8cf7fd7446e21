//! The torture checks, `load.*` (`CheckOptions::load`, `mcp-assured check --load`): the
//! fault-server's two planted faults are caught (answers swapped between calls in flight,
//! memory kept by every session), and correct servers pass: the fault-server without a
//! fault, the example server, server-everything and the Python SDK peer, over stdio and
//! streamable HTTP.

use std::{
    process::{Command, Output},
    time::Duration,
};

use mcp_assured::{
    McpAssured, McpClient,
    checks::{CheckOptions, LOAD_CHECKS},
    fixture::{ServerCommand, ServerProcess},
    report::{Report, Status},
};
use mcp_assured_tests::{
    Transport, connect, example_server_binary, faults::Fault, server, workspace_binary,
};

const FAULT_SERVER: &str = env!("CARGO_BIN_EXE_fault-server");

/// Generous: the peers run beside other tests on two cores.
const TIMEOUT: Duration = Duration::from_secs(20);

/// Fewer sessions held at once than the default 100, to keep the suite quick.
fn options() -> CheckOptions {
    CheckOptions::default().load_sessions(20)
}

#[track_caller]
fn status(report: &Report, name: &str) -> Status {
    report
        .entry(name)
        .unwrap_or_else(|| panic!("no entry {name} in\n{report}"))
        .status
}

#[track_caller]
fn message<'a>(report: &'a Report, name: &str) -> &'a str {
    &report.entry(name).unwrap().message
}

async fn fault_over_stdio(fault: Fault) -> McpClient {
    McpAssured::client()
        .command(FAULT_SERVER)
        .args(["--fault", fault.name()])
        .timeout(TIMEOUT)
        .build()
        .await
        .unwrap()
}

/// The fault-server over streamable HTTP, and a client speaking `protocol` (the newest both
/// speak if `None`).
async fn fault_over_http(fault: Fault, protocol: Option<&str>) -> (ServerProcess, McpClient) {
    let server = server::start(
        &ServerCommand::new(FAULT_SERVER)
            .args(["--transport", "http", "--port", "{port}"])
            .args(["--fault", fault.name()]),
        "/mcp",
    )
    .await;
    let mut client = McpAssured::client()
        .base_uri(server.url().unwrap())
        .timeout(TIMEOUT);
    if let Some(protocol) = protocol {
        client = client.protocol_version(protocol);
    }
    (server, client.build().await.unwrap())
}

/// Every `load.*` check passed, or skipped for a reason other than a missing echo tool.
#[track_caller]
fn assert_passes(report: &Report, what: &str) {
    let names: Vec<&str> = report.entries().iter().map(|e| e.name.as_str()).collect();
    assert_eq!(names, LOAD_CHECKS, "{what}:\n{report}");
    for entry in report {
        assert!(
            matches!(entry.status, Status::Passed | Status::Skipped),
            "{what}: {} is {:?}:\n{report}",
            entry.name,
            entry.status
        );
    }
    assert_eq!(
        status(report, "load.answers_match_requests"),
        Status::Passed,
        "{what}:\n{report}"
    );
    println!("{what}:\n{report}");
}

// ----- the planted faults -------------------------------------------------------------------

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn answers_swapped_between_calls_in_flight_fail_over_stdio() {
    let client = fault_over_stdio(Fault::SwapAnswers).await;
    let report = client.check_load(&options()).await;
    assert_eq!(
        status(&report, "load.answers_match_requests"),
        Status::Failed,
        "{report}"
    );
    let found = message(&report, "load.answers_match_requests");
    assert!(
        found.contains("carry another request's result (ids right, content not)"),
        "{found}"
    );
    // Each stdio session is a process of its own: answers swap only within one.
    assert_eq!(
        status(&report, "load.sessions_isolated"),
        Status::Passed,
        "{report}"
    );
    client.close().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn answers_swapped_across_sessions_fail_over_http() {
    let (_server, client) = fault_over_http(Fault::SwapAnswers, None).await;
    let report = client.check_load(&options()).await;
    assert_eq!(
        status(&report, "load.answers_match_requests"),
        Status::Failed,
        "{report}"
    );
    assert_eq!(
        status(&report, "load.sessions_isolated"),
        Status::Failed,
        "{report}"
    );
    assert!(
        message(&report, "load.sessions_isolated")
            .contains("content of a request sent in another session"),
        "{report}"
    );
    client.close().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn memory_kept_by_every_session_fails_sessions_freed() {
    // Sessions, with `initialize`, are the handshake revision's.
    let (_server, client) = fault_over_http(Fault::LeakPerSession, Some("2025-11-25")).await;
    // The server's pid is found from the port it listens on.
    let report = client.check_load(&options().load_sessions(10)).await;
    assert_eq!(
        status(&report, "load.sessions_freed"),
        Status::Failed,
        "{report}"
    );
    assert!(
        message(&report, "load.sessions_freed").contains("per session never given back"),
        "{report}"
    );
    // Only sessions leak: the calls in flight are answered right, and cancelled ones freed.
    assert_eq!(
        status(&report, "load.answers_match_requests"),
        Status::Passed,
        "{report}"
    );
    assert_eq!(
        status(&report, "load.cancellation_frees"),
        Status::Passed,
        "{report}"
    );
    client.close().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_server_pid_can_be_given() {
    // 2026-07-28 has no sessions: each connection opens with `server/discover`.
    let (server, client) = fault_over_http(Fault::LeakPerSession, None).await;
    let given = options()
        .load_sessions(10)
        .load_process_id(server.pid().unwrap())
        .skip("load.answers_match_requests")
        .skip("load.sessions_isolated");
    let report = client.check_load(&given).await;
    assert_eq!(
        status(&report, "load.sessions_freed"),
        Status::Failed,
        "{report}"
    );
    client.close().await.unwrap();
}

// ----- correct servers pass -----------------------------------------------------------------

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_fault_server_without_a_fault_passes() {
    let client = fault_over_stdio(Fault::None).await;
    let report = client.check_load(&options()).await;
    assert_passes(&report, "fault-server over stdio");
    client.close().await.unwrap();

    let (_server, client) = fault_over_http(Fault::None, None).await;
    let report = client.check_load(&options()).await;
    assert_passes(&report, "fault-server over streamable HTTP");
    for name in LOAD_CHECKS {
        assert_eq!(status(&report, name), Status::Passed, "{report}");
    }
    client.close().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_example_server_passes() {
    let client = McpAssured::client()
        .command(example_server_binary())
        .timeout(TIMEOUT)
        .build()
        .await
        .unwrap();
    let report = client.check_load(&options()).await;
    assert_passes(&report, "example-server over stdio");
    client.close().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn server_everything_passes() {
    for transport in [Transport::Stdio, Transport::StreamableHttp] {
        let connected = connect::everything(transport, |builder| builder).await;
        let report = connected.check_load(&options()).await;
        assert_passes(&report, &format!("server-everything over {transport:?}"));
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_python_sdk_passes() {
    for transport in [Transport::Stdio, Transport::StreamableHttp] {
        let connected = connect::python(transport).await;
        let report = connected.check_load(&options()).await;
        assert_passes(&report, &format!("the Python SDK over {transport:?}"));
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn in_process_what_needs_sessions_skips() {
    let client = McpAssured::client()
        .service(mcp_assured_examples::ExampleServer::new())
        .build()
        .await
        .unwrap();
    let report = client.check_load(&options()).await;
    assert_eq!(
        status(&report, "load.answers_match_requests"),
        Status::Passed,
        "{report}"
    );
    for name in &LOAD_CHECKS[1..] {
        assert_eq!(status(&report, name), Status::Skipped, "{report}");
    }
    assert!(
        message(&report, "load.cancellation_frees").contains("runs in this process"),
        "{report}"
    );
}

// ----- the command line ---------------------------------------------------------------------

fn mcp_assured(args: &[&str]) -> Output {
    Command::new(workspace_binary("mcp-assured-cli", "mcp-assured"))
        .args(args)
        .output()
        .unwrap()
}

fn lines_of(output: &Output) -> Vec<String> {
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(str::to_owned)
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn check_load_exits_1_on_swapped_answers() {
    let output = tokio::task::spawn_blocking(|| {
        mcp_assured(&[
            "check",
            "--load",
            "--no-server-tests",
            "--",
            FAULT_SERVER,
            "--fault",
            "swap-answers",
        ])
    })
    .await
    .unwrap();
    let lines = lines_of(&output);
    assert_eq!(output.status.code(), Some(1), "{lines:#?}");
    assert!(
        lines
            .iter()
            .any(|line| line.starts_with("FAIL load.answers_match_requests:")),
        "{lines:#?}"
    );
    for name in LOAD_CHECKS {
        assert!(
            lines.iter().any(|line| line.contains(&format!(" {name}:"))),
            "{name} missing: {lines:#?}"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_load_no_load_check_runs_and_skip_takes_their_names() {
    // Both exit 0: the swapped answers are not looked for, or reported as skipped.
    let plain = tokio::task::spawn_blocking(|| {
        mcp_assured(&[
            "check",
            "--no-server-tests",
            "--",
            FAULT_SERVER,
            "--fault",
            "swap-answers",
        ])
    });
    let skipped = tokio::task::spawn_blocking(|| {
        mcp_assured(&[
            "check",
            "--load",
            "--skip",
            "load.*",
            "--no-server-tests",
            "--",
            FAULT_SERVER,
            "--fault",
            "swap-answers",
        ])
    });
    let (plain, skipped) = (plain.await.unwrap(), skipped.await.unwrap());

    let lines = lines_of(&plain);
    assert_eq!(plain.status.code(), Some(0), "{lines:#?}");
    assert!(
        !lines.iter().any(|line| line.contains("load.")),
        "{lines:#?}"
    );
    let lines = lines_of(&skipped);
    assert_eq!(skipped.status.code(), Some(0), "{lines:#?}");
    assert!(
        lines.iter().any(|line| line
            .starts_with("SKIP load.answers_match_requests: skipped on request; it found: FAIL")),
        "{lines:#?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn check_load_exits_1_on_a_leak_per_session_over_http() {
    let server = server::start(
        &ServerCommand::new(FAULT_SERVER)
            .args(["--transport", "http", "--port", "{port}"])
            .args(["--fault", "leak-per-session"]),
        "/mcp",
    )
    .await;
    let url = server.url().unwrap().to_owned();
    // The server's pid is found from the port it listens on.
    let output = tokio::task::spawn_blocking(move || {
        mcp_assured(&[
            "check",
            "--load",
            "--load-sessions",
            "10",
            "--no-server-tests",
            &url,
        ])
    })
    .await
    .unwrap();
    let lines = lines_of(&output);
    assert_eq!(output.status.code(), Some(1), "{lines:#?}");
    assert!(
        lines
            .iter()
            .any(|line| line.starts_with("FAIL load.sessions_freed:")),
        "{lines:#?}"
    );
}
