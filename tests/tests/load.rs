//! Load runs (`client.load()`, `load::over_sessions`, `mcp-assured bench`) against real
//! servers: the example server in process, over stdio and over streamable HTTP,
//! server-everything and the Python SDK server. Counts and percentiles must add up, errors
//! be counted by kind, thresholds decide success and the CLI's exit status. Small counts:
//! the figures are checked for sense, never for speed.

use std::{panic::AssertUnwindSafe, process::Output, time::Duration};

use mcp_assured::{
    Error, McpAssured, McpClient,
    load::{self, ErrorKind, LoadReport, Verdict},
};
use mcp_assured_examples::{ExampleServer, HttpOptions, serve::serve_streamable_http};
use mcp_assured_tests::{Transport, connect, example_server_binary, peers, workspace_binary};
use serde_json::{Value, json};

async fn in_process() -> McpClient {
    McpAssured::client()
        .service(ExampleServer::new())
        .timeout(Duration::from_secs(20))
        .build()
        .await
        .expect("the example server runs in process")
}

/// The example server over streamable HTTP on a loopback port of this runtime.
async fn example_http() -> (String, tokio::task::JoinHandle<()>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    let task = tokio::spawn(async move {
        let _ = serve_streamable_http(listener, HttpOptions::default()).await;
    });
    (url, task)
}

/// Percentiles in order (of the calls that succeeded, and apart of those that failed),
/// counts that add up over tools, a window and a throughput of the calls that succeeded.
#[track_caller]
fn assert_plausible(report: &LoadReport, calls: u64) {
    for (l, measured) in [
        (report.latency, report.calls - report.errors),
        (report.failed_latency, report.errors),
    ] {
        assert!(
            l.min <= l.p50
                && l.p50 <= l.p90
                && l.p90 <= l.p99
                && l.p99 <= l.p999
                && l.p999 <= l.max,
            "percentiles out of order: {l:?}"
        );
        assert_eq!(l.min > Duration::ZERO, measured > 0, "{l:?}");
        assert!(l.max < Duration::from_secs(20), "{l:?}");
    }
    assert_eq!(report.calls, calls, "{report}");
    let per_tool: u64 = report.tools.iter().map(|tool| tool.stats.calls).sum();
    assert_eq!(per_tool, report.calls, "{report}");
    let errors: u64 = report.tools.iter().map(|tool| tool.stats.errors).sum();
    assert_eq!(errors, report.errors, "{report}");
    let by_kind: u64 = report.errors_by_kind.iter().map(|e| e.count).sum();
    assert_eq!(by_kind, report.errors, "{report}");
    assert!(report.window > Duration::ZERO);
    let expected = (report.calls - report.errors) as f64 / report.window.as_secs_f64();
    assert!((report.throughput - expected).abs() < 1e-6 * expected.max(1.0));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_weighted_mix_in_process_adds_up() {
    let client = in_process().await;
    let report = client
        .load()
        .call("echo", json!({"message": "hi"}))
        .call_weighted("add", json!({"a": 1, "b": 2}), 3)
        .concurrency(4)
        .warmup(20)
        .calls(400)
        .run()
        .await
        .unwrap();
    assert_plausible(&report, 400);
    assert_eq!(report.warmup_calls, 20);
    assert_eq!((report.sessions, report.concurrency), (1, 4));
    assert_eq!(report.errors, 0, "{report}");
    let (echo, add) = (report.tool("echo").unwrap(), report.tool("add").unwrap());
    // 1:3 by weight: the adds are clearly the majority.
    assert!(add.calls > 2 * echo.calls, "{report}");
    assert!(report.is_success(), "no threshold: a success");

    let table = report.to_string();
    assert!(table.contains("p99.9"), "{table}");
    assert!(table.contains("(all)"), "{table}");
    let json = serde_json::to_value(&report).unwrap();
    assert_eq!(json["calls"], 400);
    assert_eq!(json["tools"][1]["name"], "add");
    assert!(json["latency"]["p99_us"].as_u64().unwrap() > 0, "{json}");
    assert!(json["window_s"].as_f64().unwrap() > 0.0, "{json}");
    client.close().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failed_call_fails_the_run_unless_an_error_rate_allows_it() {
    let client = in_process().await;
    let report = client
        .load()
        .call("fail", json!({}))
        .calls(5)
        .run()
        .await
        .unwrap();
    assert!(!report.is_success(), "every call failed: {report}");
    let missed: Vec<&Verdict> = report.missed().collect();
    assert_eq!(missed.len(), 1, "{report}");
    assert_eq!(missed[0].name, "max_error_rate");
    assert!(
        missed[0]
            .limit
            .contains("the default: every call must succeed"),
        "{}",
        missed[0].limit
    );
    let allowed = client
        .load()
        .call("fail", json!({}))
        .calls(5)
        .max_error_rate(1.0)
        .run()
        .await
        .unwrap();
    assert!(allowed.is_success(), "{allowed}");
    // No call succeeded: a latency threshold has nothing to hold, and is missed.
    let unmeasured = client
        .load()
        .call("fail", json!({}))
        .calls(5)
        .max_error_rate(1.0)
        .max_p99(Duration::from_secs(1))
        .run()
        .await
        .unwrap();
    let missed: Vec<&Verdict> = unmeasured.missed().collect();
    assert_eq!(missed.len(), 1, "{unmeasured}");
    assert_eq!(missed[0].name, "max_p99");
    assert!(
        missed[0].measured.contains("no call succeeded"),
        "{}",
        missed[0].measured
    );
}

#[tokio::test]
async fn errors_are_counted_by_kind_and_fail_a_threshold() {
    let client = in_process().await;
    let report = client
        .load()
        .call("echo", json!({"message": "hi"}))
        .call("fail", json!({}))
        .call("hang", json!({}))
        .call_timeout(Duration::from_millis(200))
        .concurrency(8)
        .calls(60)
        .max_error_rate(0.01)
        .max_p99(Duration::from_secs(30))
        .run()
        .await
        .unwrap();
    assert_plausible(&report, 60);
    let kinds = |tool: &str| -> Vec<ErrorKind> {
        let stats = report.tool(tool).unwrap();
        assert_eq!(
            stats.errors, stats.calls,
            "every call of {tool} fails: {report}"
        );
        stats.errors_by_kind.iter().map(|e| e.kind).collect()
    };
    assert_eq!(kinds("fail"), [ErrorKind::ToolError]);
    assert_eq!(kinds("hang"), [ErrorKind::Timeout]);
    assert_eq!(report.tool("echo").unwrap().errors, 0, "{report}");
    // The failed calls' latencies are apart: the timeouts' waits are no echo's latency.
    let hang = report.tool("hang").unwrap();
    assert!(
        hang.failed_latency.min >= Duration::from_millis(200),
        "{report}"
    );
    assert_eq!(hang.latency.max, Duration::ZERO, "{report}");
    assert_eq!(hang.throughput, 0.0, "{report}");
    let echo = report.tool("echo").unwrap();
    assert!(echo.latency.max < Duration::from_millis(200), "{report}");
    assert!(
        report.latency.max < Duration::from_millis(200),
        "the run's latency is that of the calls that succeeded: {report}"
    );
    assert!(
        report
            .to_string()
            .contains("hang failed calls' latency: p50"),
        "{report}"
    );
    let example = &report.tool("fail").unwrap().errors_by_kind[0].example;
    assert!(example.contains("Connection refused"), "{example}");

    assert!(!report.is_success());
    let missed: Vec<&str> = report.missed().map(|v| v.name).collect();
    assert_eq!(missed, ["max_error_rate"]);
    let message = report.try_success().unwrap_err();
    assert!(
        message.contains("FAIL error rate ≤ 0.01: measured"),
        "{message}"
    );
    let panic = std::panic::catch_unwind(AssertUnwindSafe(|| {
        report.assert_success();
    }))
    .unwrap_err();
    let text = panic.downcast_ref::<String>().unwrap();
    assert!(text.starts_with("Load thresholds missed."), "{text}");

    let xml = report.to_report().junit("load").to_string();
    assert!(xml.contains(r#"<testcase name="max_error_rate""#), "{xml}");
    assert!(xml.contains("<failure"), "{xml}");
    assert!(xml.contains(r#"<testcase name="max_p99""#), "{xml}");
    client.close().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_json_rpc_error_is_counted_by_its_code() {
    // The planted-bugs server's `divide` by zero: JSON-RPC code 0 on the 2025 revisions.
    let client = McpAssured::client()
        .command(peers::python())
        .arg(peers::planted_bugs_server_script())
        .protocol_version("2025-11-25")
        .timeout(Duration::from_secs(20))
        .build()
        .await
        .expect("the planted-bugs server starts");
    let report = client
        .load()
        .call("divide", json!({"a": 1, "b": 0}))
        .call("divide", json!({"a": 1, "b": 2}))
        .concurrency(2)
        .calls(40)
        .run()
        .await
        .unwrap();
    assert_plausible(&report, 40);
    let divide = report.tool("divide").unwrap();
    assert!(
        divide.errors > 0 && divide.errors < divide.calls,
        "{report}"
    );
    let kinds: Vec<ErrorKind> = divide.errors_by_kind.iter().map(|e| e.kind).collect();
    assert_eq!(kinds, [ErrorKind::JsonRpc(0)], "{report}");
    assert!(report.to_string().contains("JSON-RPC 0"), "{report}");
    client.close().await.unwrap();
}

#[tokio::test]
async fn bad_plans_fail_before_any_call() {
    let client = in_process().await;
    let unknown = client.load().call("nope", json!({})).calls(5).run().await;
    assert!(
        matches!(&unknown, Err(Error::NotFound { name, .. }) if name == "nope"),
        "{unknown:?}"
    );
    let not_object = client.load().call("echo", json!("hi")).calls(5).run().await;
    assert!(
        matches!(&not_object, Err(Error::InvalidInput { .. })),
        "{not_object:?}"
    );
    for (what, run) in [
        (
            "concurrency",
            client.load().concurrency(0).calls(1).run().await,
        ),
        (
            "rate",
            client.load().max_error_rate(2.0).calls(1).run().await,
        ),
        ("count", client.load().calls(0).run().await),
    ] {
        assert!(
            matches!(run, Err(Error::InvalidInput { .. })),
            "{what}: {run:?}"
        );
    }
    // In process, the server cannot be started again for a second session.
    let error = client
        .load()
        .call("echo", json!({"message": "hi"}))
        .sessions(2)
        .calls(5)
        .run()
        .await
        .unwrap_err();
    assert!(error.to_string().contains("over_sessions"), "{error}");
    client.close().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn many_sessions_in_process_and_over_http() {
    let report = load::over_sessions(|| McpAssured::client().service(ExampleServer::new()).build())
        .sessions(3)
        .concurrency(2)
        .call("echo", json!({"message": "hi"}))
        .calls(90)
        .run()
        .await
        .unwrap();
    assert_plausible(&report, 90);
    assert_eq!(report.sessions, 3);

    let (url, server) = example_http().await;
    let client = McpAssured::client().base_uri(&url).build().await.unwrap();
    let report = client
        .load()
        .sessions(3)
        .concurrency(2)
        .call("add", json!({"a": 2, "b": 3}))
        .warmup(6)
        .duration(Duration::from_millis(600))
        .min_throughput(1.0)
        .run()
        .await
        .unwrap();
    assert_eq!(report.sessions, 3);
    assert_eq!(report.errors, 0, "{report}");
    assert!(report.calls > 0);
    assert_plausible(&report, report.calls);
    assert!(report.is_success(), "{report}");
    assert!(!client.is_closed(), "the caller's session stays open");
    client.close().await.unwrap();
    server.abort();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn over_stdio_sessions_are_processes_and_a_crash_is_a_lost_session() {
    let client = McpAssured::client()
        .command(example_server_binary())
        .timeout(Duration::from_secs(20))
        .build()
        .await
        .unwrap();
    let report = client
        .load()
        .sessions(2)
        .concurrency(2)
        .call("echo", json!({"message": "hi"}))
        .calls(100)
        .run()
        .await
        .unwrap();
    assert_plausible(&report, 100);
    assert_eq!((report.sessions, report.sessions_lost), (2, 0));

    let report = client
        .load()
        .call("crash", json!({}))
        .calls(5)
        .run()
        .await
        .unwrap();
    assert_eq!(report.sessions_lost, 1, "{report}");
    assert!(
        report.calls >= 1 && report.calls == report.errors,
        "{report}"
    );
    let kinds: Vec<ErrorKind> = report.errors_by_kind.iter().map(|e| e.kind).collect();
    assert!(kinds.contains(&ErrorKind::Transport), "{report}");
    assert!(
        report.to_string().contains("1 of 1 sessions closed"),
        "{report}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn server_everything_over_stdio() {
    let everything = connect::everything(Transport::Stdio, |builder| builder).await;
    let report = everything
        .load()
        .call("echo", json!({"message": "hi"}))
        .call("get-sum", json!({"a": 2, "b": 3.5}))
        .concurrency(4)
        .warmup(10)
        .calls(200)
        .max_error_rate(0.0)
        .run()
        .await
        .unwrap();
    assert_plausible(&report, 200);
    report.assert_success();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_tool_of_the_python_server_with_generated_arguments() {
    let python = connect::python(Transport::Stdio).await;
    let report = python
        .load()
        .every_tool()
        .concurrency(4)
        .calls(120)
        .run()
        .await
        .unwrap();
    assert_plausible(&report, 120);
    let names: Vec<&str> = report.tools.iter().map(|t| t.name.as_str()).collect();
    for tool in ["echo", "add", "divide", "ranked"] {
        assert!(names.contains(&tool), "{tool} not called: {report}");
    }
    // Valid arguments: only a division by zero may fail, as a tool error.
    for tool in &report.tools {
        for error in &tool.stats.errors_by_kind {
            assert_eq!(
                (tool.name.as_str(), error.kind),
                ("divide", ErrorKind::ToolError),
                "{report}"
            );
        }
    }
}

/// `mcp-assured bench args`; a `--json` output must be valid against the published schema.
fn bench(args: &[&str]) -> Output {
    let output = std::process::Command::new(workspace_binary("mcp-assured-cli", "mcp-assured"))
        .arg("bench")
        .args(args)
        .output()
        .expect("mcp-assured runs");
    let mut asked = vec!["bench"];
    asked.extend(args);
    mcp_assured_tests::schemas::assert_json_output(&asked, &output.stdout);
    output
}

fn text(output: &Output) -> String {
    format!(
        "status {}\nstdout:\n{}\nstderr:\n{}",
        output.status,
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    )
}

#[test]
fn the_cli_reports_writes_json_and_junit_and_exits_by_thresholds() {
    let server = example_server_binary();
    let server = server.to_str().unwrap();
    let dir = std::env::temp_dir().join(format!("mcp-assured-load-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (json_file, junit) = (dir.join("bench.json"), dir.join("bench.xml"));

    let met = bench(&[
        "--call",
        r#"echo={"message":"hi"}@3"#,
        "--call",
        r#"add={"a":1,"b":2}"#,
        "--concurrency",
        "4",
        "--warmup",
        "10",
        "--calls",
        "200",
        "--max-p99",
        "20000",
        "--max-error-rate",
        "0",
        "--json-file",
        json_file.to_str().unwrap(),
        "--junit",
        junit.to_str().unwrap(),
        "--",
        server,
    ]);
    assert_eq!(met.status.code(), Some(0), "{}", text(&met));
    let stdout = String::from_utf8_lossy(&met.stdout);
    assert!(stdout.contains("200 calls in"), "{}", text(&met));
    assert!(stdout.contains("PASS p99 ≤ 20000.000 ms"), "{}", text(&met));
    let json: Value = serde_json::from_slice(&std::fs::read(&json_file).unwrap()).unwrap();
    assert_eq!(json["load"]["calls"], 200, "{json}");
    assert_eq!(json["load"]["tools"][0]["name"], "echo", "{json}");
    assert_eq!(json["load"]["thresholds"][0]["passed"], true, "{json}");
    let xml = std::fs::read_to_string(&junit).unwrap();
    assert!(xml.contains(r#"<testcase name="run""#), "{xml}");
    assert!(xml.contains(r#"<testcase name="max_p99""#), "{xml}");
    assert!(!xml.contains("<failure"), "{xml}");

    // No latency is 0 ms: missed, exit 1, with what was measured; --json on stdout.
    let missed = bench(&[
        "--json",
        "--call",
        r#"echo={"message":"hi"}"#,
        "--calls",
        "20",
        "--max-p99",
        "0",
        "--",
        server,
    ]);
    assert_eq!(missed.status.code(), Some(1), "{}", text(&missed));
    let json: Value = serde_json::from_slice(&missed.stdout).expect("--json prints JSON");
    assert_eq!(json["load"]["thresholds"][0]["passed"], false, "{json}");
    assert!(
        String::from_utf8_lossy(&missed.stderr)
            .contains("threshold missed: p99 ≤ 0.000 ms, measured"),
        "{}",
        text(&missed)
    );

    // Wrong calls: usage errors (2), the unknown tool after listing, the bad JSON before.
    for call in ["nope={}", "echo={bad"] {
        let wrong = bench(&["--call", call, "--calls", "5", "--", server]);
        assert_eq!(wrong.status.code(), Some(2), "{call}: {}", text(&wrong));
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_cli_spreads_sessions_over_http() {
    let (url, server) = example_http().await;
    let output = tokio::task::spawn_blocking(move || {
        bench(&[
            "--sessions",
            "3",
            "--concurrency",
            "2",
            "--calls",
            "60",
            "--call",
            r#"echo={"message":"hi"}"#,
            "--json",
            &url,
        ])
    })
    .await
    .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", text(&output));
    let json: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(json["load"]["sessions"], 3, "{json}");
    assert_eq!(json["load"]["calls"], 60, "{json}");
    server.abort();
}
