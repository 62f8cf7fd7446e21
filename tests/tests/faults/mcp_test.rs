//! `#[mcp_test]` bodies that misbehave: teardown still runs, the child is reaped, and unmet
//! wiremock expectations are reported exactly once.
//!
//! The misbehaving tests live in `failing`; each is a `#[should_panic]` test (so the suite
//! stays green) that records its child's pid. The tests below run them again — directly, or in
//! a process of their own to see what they print — and check what was left behind.

use std::{
    cell::Cell,
    panic::AssertUnwindSafe,
    time::{Duration, Instant},
};

use mcp_assured::{
    McpClient,
    fixture::ServerProcess,
    mcp_test,
    wiremock::{Mock, MockServer, ResponseTemplate, matchers::method},
};
use serde_json::json;

use crate::support::assert_reaped;

thread_local! {
    /// The pid of the child of the last failing test run on this thread. `#[mcp_test]` runs
    /// the body on the test's own thread, and tests run in parallel, hence per thread.
    static CHILD: Cell<Option<u32>> = const { Cell::new(None) };
}

fn record_child(server: &ServerProcess) {
    CHILD.set(server.pid());
}

/// Runs a generated test, returning its panic message and how long it took.
fn failure_of(test: fn()) -> (String, Duration) {
    CHILD.set(None);
    let started = Instant::now();
    let panic = std::panic::catch_unwind(AssertUnwindSafe(test)).expect_err("the test must fail");
    let message = panic
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| panic.downcast_ref::<&str>().map(|s| (*s).to_owned()))
        .unwrap_or_default();
    (message, started.elapsed())
}

/// A mock that expects one call, which the tests never make.
async fn expect_one_call(backend: &MockServer) {
    Mock::given(method("GET"))
        .respond_with(ResponseTemplate::new(200))
        .expect(1)
        .named("the weather API")
        .mount(backend)
        .await;
}

fn recorded_child() -> u32 {
    CHILD.get().expect("the test recorded its child")
}

mod failing {
    use super::*;

    #[mcp_test(server = bin("fault-server"), transport = [stdio, http(args("--transport", "http"))])]
    #[should_panic(expected = "deliberate failure")]
    pub async fn panics(server: &ServerProcess) {
        record_child(server);
        panic!("deliberate failure");
    }

    #[mcp_test(
        server = bin("fault-server"),
        transport = [stdio, http(args("--transport", "http"))],
        timeout = "1s"
    )]
    #[should_panic(expected = "timed out after 1s while running the test body")]
    pub async fn times_out(client: McpClient, server: &ServerProcess) {
        record_child(server);
        // Blocks in the server, not in the test: a call that never answers.
        let _ = client
            .with_timeout(Duration::from_secs(30))
            .call_tool("hang", json!({}))
            .await;
    }

    #[mcp_test(
        server = bin("fault-server"),
        transport = [stdio, http(args("--transport", "http"))],
        worker_threads = 2
    )]
    #[should_panic(expected = "the test ended but its task did not")]
    pub async fn leaks_a_task(client: McpClient, server: &ServerProcess) {
        record_child(server);
        // A task that outlives the body, holding the client and calling forever.
        let leaked = client.clone();
        tokio::spawn(async move {
            loop {
                let _ = leaked
                    .call_tool("echo", json!({"text": "still here"}))
                    .await;
                tokio::time::sleep(Duration::from_millis(5)).await;
            }
        });
        tokio::time::sleep(Duration::from_millis(50)).await;
        panic!("the test ended but its task did not");
    }

    #[mcp_test(server = bin("fault-server"))]
    #[should_panic(expected = "Verifications failed")]
    pub async fn leaves_expectations_unmet(server: &ServerProcess, backend: MockServer) {
        record_child(server);
        expect_one_call(&backend).await;
    }

    #[mcp_test(server = bin("fault-server"))]
    #[should_panic(expected = "the body failed first")]
    pub async fn panics_with_expectations_unmet(server: &ServerProcess, backend: MockServer) {
        record_child(server);
        expect_one_call(&backend).await;
        panic!("the body failed first");
    }

    #[mcp_test(server = bin("fault-server"), timeout = "1s")]
    #[should_panic(expected = "timed out after 1s")]
    pub async fn times_out_with_expectations_unmet(
        client: McpClient,
        server: &ServerProcess,
        backend: MockServer,
    ) {
        record_child(server);
        expect_one_call(&backend).await;
        let _ = client
            .with_timeout(Duration::from_secs(30))
            .call_tool("hang", json!({}))
            .await;
    }
}

#[test]
fn a_panicking_body_is_reported_as_is_and_the_child_reaped() {
    for test in [failing::panics::stdio, failing::panics::http] {
        let (message, _) = failure_of(test);
        assert_eq!(message, "deliberate failure");
        assert_reaped(recorded_child());
    }
}

#[test]
fn a_body_stuck_on_a_call_times_out_and_the_child_is_reaped() {
    for test in [failing::times_out::stdio, failing::times_out::http] {
        let (message, took) = failure_of(test);
        assert!(
            message.starts_with("the test timed out after 1s while running the test body"),
            "{message}"
        );
        assert!(took < Duration::from_secs(5), "teardown took {took:?}");
        assert_reaped(recorded_child());
    }
}

#[test]
fn a_leaked_task_does_not_keep_the_child_alive() {
    for test in [failing::leaks_a_task::stdio, failing::leaks_a_task::http] {
        let (message, took) = failure_of(test);
        assert_eq!(message, "the test ended but its task did not");
        assert!(took < Duration::from_secs(5), "teardown took {took:?}");
        assert_reaped(recorded_child());
    }
}

/// Runs one failing test in a process of its own and returns what it printed.
fn output_of(test: &str) -> String {
    let output = std::process::Command::new(std::env::current_exe().unwrap())
        .args(["--exact", test, "--nocapture", "--test-threads", "1"])
        .output()
        .unwrap();
    let printed = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(output.status.success(), "{printed}");
    printed
}

#[track_caller]
fn assert_printed_times(printed: &str, text: &str, times: usize) {
    assert_eq!(
        printed.matches(text).count(),
        times,
        "`{text}` in:\n{printed}"
    );
}

#[test]
fn unmet_expectations_are_reported_once() {
    let (message, _) = failure_of(failing::leaves_expectations_unmet);
    assert!(message.contains("the weather API"), "{message}");
    assert_reaped(recorded_child());
    let printed = output_of("mcp_test::failing::leaves_expectations_unmet");
    assert_printed_times(&printed, "Verifications failed", 1);
}

#[test]
fn unmet_expectations_are_reported_once_after_a_timeout() {
    let (message, _) = failure_of(failing::times_out_with_expectations_unmet);
    assert!(
        message.starts_with("the test timed out after 1s"),
        "{message}"
    );
    assert_reaped(recorded_child());
    let printed = output_of("mcp_test::failing::times_out_with_expectations_unmet");
    assert_printed_times(&printed, "the test timed out", 1);
    assert_printed_times(&printed, "Verifications failed", 1);
    assert_printed_times(&printed, "the weather API", 1);
}

/// wiremock's own rule: a test that already failed is not failed again by its mocks, so the
/// body's panic is the one report.
#[test]
fn a_panicking_body_is_the_only_report() {
    let (message, _) = failure_of(failing::panics_with_expectations_unmet);
    assert_eq!(message, "the body failed first");
    assert_reaped(recorded_child());
    let printed = output_of("mcp_test::failing::panics_with_expectations_unmet");
    assert_printed_times(&printed, "the body failed first", 1);
    assert_printed_times(&printed, "Verifications failed", 0);
}
