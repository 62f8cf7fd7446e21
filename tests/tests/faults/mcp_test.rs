//! `#[mcp_test]` bodies that misbehave: teardown still runs (deferred cleanups, the client
//! closed, the child reaped or the in-process server dropped), a leaked task is stopped, and
//! unmet wiremock expectations are reported exactly once.
//!
//! The misbehaving tests live in `failing`; each is a `#[should_panic]` test (so the suite
//! stays green) that records what it leaves behind. Those in `leaking` pass, leaving a task
//! behind. The tests below run them again — directly, or in a process of their own to see
//! what they print — and check what was left.

use std::{
    cell::RefCell,
    panic::AssertUnwindSafe,
    sync::{
        Arc, Weak,
        atomic::{AtomicBool, Ordering},
    },
    time::{Duration, Instant},
};

use mcp_assured::{
    McpClient,
    fixture::{BoxError, Fixture, FixtureContext, ServerProcess},
    mcp_test,
    wiremock::{Mock, MockServer, ResponseTemplate, matchers::method},
};
use mcp_assured_tests::{
    faults::{Dropped, FaultServer},
    processes::assert_reaped,
};
use serde_json::json;

use crate::support::{assert_gone, pid_file, tag};

/// What the last failing test run on this thread left behind. `#[mcp_test]` runs the body
/// and the teardown on the test's own thread, and tests run in parallel, hence per thread.
#[derive(Default)]
struct Left {
    /// The server's child process.
    child: Option<u32>,
    /// The tag of a `fault-server` started with a [`PidFile`].
    tagged: Option<String>,
    /// Set by the [`Cleanup`] fixture's deferred cleanup.
    cleaned_up: Option<Arc<AtomicBool>>,
    /// Alive while the in-process server is.
    in_process: Option<Dropped>,
    /// Alive while the leaked task is.
    leaked_task: Option<Weak<()>>,
}

thread_local! {
    static LEFT: RefCell<Left> = RefCell::default();
}

fn record_child(server: &ServerProcess) {
    LEFT.with_borrow_mut(|left| left.child = server.pid());
}

/// A `FaultServer` for `service(..)`, recorded to check it is dropped.
fn in_process_server() -> FaultServer {
    let server = FaultServer::new();
    LEFT.with_borrow_mut(|left| left.in_process = Some(server.dropped()));
    server
}

/// A user fixture whose deferred cleanup records that it ran.
#[derive(Debug)]
struct Cleanup;

impl Fixture for Cleanup {
    async fn setup(ctx: &mut FixtureContext<'_>) -> Result<Self, BoxError> {
        let ran = Arc::new(AtomicBool::new(false));
        LEFT.with_borrow_mut(|left| left.cleaned_up = Some(ran.clone()));
        ctx.defer(async move { ran.store(true, Ordering::SeqCst) });
        Ok(Cleanup)
    }
}

/// `{pid_file}`: where a `fault-server` writes its pid (`--pid-file`), for a server that may
/// die before the test sees its pid.
#[derive(Debug)]
struct PidFile(String);

impl Fixture for PidFile {
    async fn setup(_: &mut FixtureContext<'_>) -> Result<Self, BoxError> {
        let tag = tag();
        LEFT.with_borrow_mut(|left| left.tagged = Some(tag.clone()));
        Ok(PidFile(pid_file(&tag).display().to_string()))
    }

    fn placeholder(&self) -> Option<String> {
        Some(self.0.clone())
    }
}

/// Runs a generated test, returning its panic message and how long it took.
fn failure_of(test: fn()) -> (String, Duration) {
    LEFT.set(Left::default());
    let started = Instant::now();
    let panic = std::panic::catch_unwind(AssertUnwindSafe(test)).expect_err("the test must fail");
    let message = panic
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| panic.downcast_ref::<&str>().map(|s| (*s).to_owned()))
        .unwrap_or_default();
    (message, started.elapsed())
}

/// Checks what the last failing test left: its child reaped (if it had one), its in-process
/// server dropped (if it had one), its deferred cleanup run (if it had one).
#[track_caller]
fn assert_nothing_left() {
    LEFT.with_borrow(|left| {
        assert!(
            left.child.is_some() || left.in_process.is_some() || left.tagged.is_some(),
            "the test recorded no server"
        );
        if let Some(pid) = left.child {
            assert_reaped(pid);
        }
        // The test's runtime is shut down by now, and every task on it dropped.
        if let Some(server) = &left.in_process {
            assert!(
                server.is_dropped(),
                "the in-process server outlived the test"
            );
        }
        if let Some(ran) = &left.cleaned_up {
            assert!(
                ran.load(Ordering::SeqCst),
                "the deferred cleanup did not run"
            );
        }
        if let Some(tag) = &left.tagged {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_time()
                .build()
                .unwrap();
            runtime.block_on(assert_gone(tag));
        }
    });
}

#[track_caller]
fn assert_cleaned_up() {
    LEFT.with_borrow(|left| {
        let ran = left.cleaned_up.as_ref().expect("the test had a Cleanup");
        assert!(
            ran.load(Ordering::SeqCst),
            "the deferred cleanup did not run"
        );
    });
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

mod failing {
    use super::*;

    #[mcp_test(
        server = bin("fault-server"),
        transport = [stdio, http(args("--transport", "http")), sse(args("--transport", "sse"))]
    )]
    #[should_panic(expected = "deliberate failure")]
    pub async fn panics(server: &ServerProcess, _cleanup: &Cleanup) {
        record_child(server);
        panic!("deliberate failure");
    }

    #[mcp_test(server = service(in_process_server()))]
    #[should_panic(expected = "deliberate failure")]
    pub async fn panics_in_process(_client: McpClient, _cleanup: &Cleanup) {
        panic!("deliberate failure");
    }

    #[mcp_test(
        server = bin("fault-server"),
        transport = [stdio, http(args("--transport", "http")), sse(args("--transport", "sse"))],
        timeout = "1s"
    )]
    #[should_panic(expected = "timed out after 1s while running the test body")]
    pub async fn times_out(client: McpClient, server: &ServerProcess, _cleanup: &Cleanup) {
        record_child(server);
        // Blocks in the server, not in the test: a call that never answers.
        let _ = client
            .with_timeout(Duration::from_secs(30))
            .call_tool("hang", json!({}))
            .await;
    }

    #[mcp_test(server = service(in_process_server()), timeout = "1s")]
    #[should_panic(expected = "timed out after 1s while running the test body")]
    pub async fn times_out_in_process(client: McpClient, _cleanup: &Cleanup) {
        let _ = client
            .with_timeout(Duration::from_secs(30))
            .call_tool("hang", json!({}))
            .await;
    }

    #[mcp_test(
        server = bin("fault-server"),
        transport = [
            http(args("--transport", "http", "--fault", "exit-at-start", "--pid-file", "{pid_file}")),
            sse(args("--transport", "sse", "--fault", "exit-at-start", "--pid-file", "{pid_file}")),
        ]
    )]
    #[should_panic(expected = "the server exited (exit status: 0) before listening")]
    pub async fn exits_at_start(_client: McpClient, pid_file: &PidFile) {
        unreachable!(
            "the server never listens, yet wrote its pid to {}",
            pid_file.0
        );
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

/// Tests that pass but leave a task running, holding the client.
mod leaking {
    use super::*;

    /// A task that outlives the body, holding the client and calling forever, and a token
    /// that lives as long as the task.
    fn leak_a_task(client: &McpClient) {
        let leaked = client.clone();
        let alive = Arc::new(());
        LEFT.with_borrow_mut(|left| left.leaked_task = Some(Arc::downgrade(&alive)));
        tokio::spawn(async move {
            let _alive = alive;
            loop {
                let _ = leaked
                    .call_tool("echo", json!({"text": "still here"}))
                    .await;
                tokio::time::sleep(Duration::from_millis(5)).await;
            }
        });
    }

    #[mcp_test(
        server = bin("fault-server"),
        transport = [stdio, http(args("--transport", "http")), sse(args("--transport", "sse"))],
        worker_threads = 2
    )]
    pub async fn leaks_a_task(client: McpClient, server: &ServerProcess) {
        record_child(server);
        leak_a_task(&client);
        tokio::time::sleep(Duration::from_millis(50)).await;
    }

    #[mcp_test(server = service(in_process_server()), worker_threads = 2)]
    pub async fn leaks_a_task_in_process(client: McpClient) {
        leak_a_task(&client);
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[test]
fn a_panicking_body_is_reported_as_is_and_teardown_runs() {
    for test in [
        failing::panics::stdio,
        failing::panics::http,
        failing::panics::sse,
        failing::panics_in_process,
    ] {
        let (message, _) = failure_of(test);
        assert_eq!(message, "deliberate failure");
        assert_cleaned_up();
        assert_nothing_left();
    }
}

#[test]
fn a_body_stuck_on_a_call_times_out_and_teardown_runs() {
    for test in [
        failing::times_out::stdio,
        failing::times_out::http,
        failing::times_out::sse,
        failing::times_out_in_process,
    ] {
        let (message, took) = failure_of(test);
        assert!(
            message.starts_with("the test timed out after 1s while running the test body"),
            "{message}"
        );
        assert!(took < Duration::from_secs(5), "teardown took {took:?}");
        assert_cleaned_up();
        assert_nothing_left();
    }
}

#[test]
fn a_leaked_task_is_stopped_and_keeps_nothing_alive() {
    for test in [
        leaking::leaks_a_task::stdio,
        leaking::leaks_a_task::http,
        leaking::leaks_a_task::sse,
        leaking::leaks_a_task_in_process,
    ] {
        LEFT.set(Left::default());
        let started = Instant::now();
        test();
        let took = started.elapsed();
        assert!(took < Duration::from_secs(5), "teardown took {took:?}");
        // The test's runtime was shut down, which drops every task still on it.
        LEFT.with_borrow(|left| {
            let task = left.leaked_task.as_ref().expect("the test leaked a task");
            assert_eq!(task.strong_count(), 0, "the leaked task outlived the test");
        });
        assert_nothing_left();
    }
}

/// An HTTP child that exits before listening fails the test at once, naming the exit, and
/// is reaped.
#[test]
fn a_server_exiting_at_start_fails_the_test_at_once() {
    for test in [failing::exits_at_start::http, failing::exits_at_start::sse] {
        let (message, took) = failure_of(test);
        let (command, reason) = message
            .strip_prefix("the test could not start: `")
            .and_then(|rest| rest.split_once("`: "))
            .unwrap_or_else(|| panic!("{message}"));
        assert!(
            command.contains("fault-server") && command.contains("exit-at-start"),
            "{message}"
        );
        assert!(
            reason.starts_with("the server exited (exit status: 0) before listening on 127.0.0.1:"),
            "{message}"
        );
        assert!(message.ends_with("; it printed nothing"), "{message}");
        assert!(took < Duration::from_secs(5), "took {took:?}");
        assert_nothing_left();
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
    assert_nothing_left();
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
    assert_nothing_left();
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
    assert_nothing_left();
    let printed = output_of("mcp_test::failing::panics_with_expectations_unmet");
    assert_printed_times(&printed, "the body failed first", 1);
    assert_printed_times(&printed, "Verifications failed", 0);
}
