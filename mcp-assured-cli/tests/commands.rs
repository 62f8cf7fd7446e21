//! `mcp-assured check`, `list` and `call` from the shell: output, JSON, JUnit XML and exit
//! statuses, against the selftest server (own tests, some failing), the example server
//! (passes every check) and nothing at all.

mod support;

use std::process::{Command, Output};

use serde_json::{Value, json};
use support::example_server_binary;

const SELFTEST_SERVER: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../tests/peers/selftest_server.py"
);

fn mcp_assured(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_mcp-assured"))
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .expect("run mcp-assured")
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

#[test]
fn check_reports_every_test_and_check_and_fails_when_one_fails() {
    let junit = std::env::temp_dir().join(format!("mcp-assured-check-{}.xml", std::process::id()));
    let output = mcp_assured(&[
        "check",
        "--junit",
        junit.to_str().unwrap(),
        "--",
        "python3",
        SELFTEST_SERVER,
    ]);
    let text = stdout(&output);
    assert_eq!(output.status.code(), Some(1), "{text}");
    let lines: Vec<&str> = text.lines().collect();
    assert!(
        lines[0].starts_with("selftest-server 1.0.0 on protocol 2025-11-25"),
        "{text}"
    );
    assert!(
        lines.contains(&"PASS mcp.test.protocol: echoed 'mcp-assured'"),
        "{text}"
    );
    assert!(
        lines.contains(
            &"FAIL mcp.test.tools.failing: 1 of 2 checks failed (failed: echo trims whitespace)"
        ),
        "{text}"
    );
    assert!(
        lines.contains(&"SKIP errors.unknown_resource: resources are not advertised"),
        "{text}"
    );
    assert_eq!(
        lines.last(),
        Some(&"14 passed, 6 failed, 6 skipped"),
        "{text}"
    );
    let xml = std::fs::read_to_string(&junit).unwrap();
    let _ = std::fs::remove_file(&junit);
    assert!(xml.contains(r#"<testsuites name="mcp-assured check" tests="26" skipped="6" failures="6" errors="0">"#), "{xml}");
    assert!(
        xml.contains(r#"<testsuite name="server-tests" tests="8""#),
        "{xml}"
    );
    assert!(
        xml.contains(r#"<failure message="1 of 2 checks failed (failed: echo trims whitespace)""#),
        "{xml}"
    );
}

#[test]
fn check_passes_on_the_example_server_and_speaks_json() {
    let example = example_server_binary();
    let output = mcp_assured(&[
        "check",
        "--json",
        "--tool-args",
        r#"weather={"city": "Paris"}"#,
        "--",
        example.to_str().unwrap(),
    ]);
    assert_eq!(output.status.code(), Some(0), "{}", stdout(&output));
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(
        report["summary"],
        json!({"passed": 18, "failed": 0, "skipped": 0})
    );
    assert_eq!(report["server"]["name"], json!("mcp-assured-example"));
    assert_eq!(report["server_tests"], json!([]));
}

#[test]
fn list_shows_what_the_server_offers() {
    let example = example_server_binary();
    let output = mcp_assured(&["list", "--", example.to_str().unwrap()]);
    let text = stdout(&output);
    assert!(output.status.success(), "{text}");
    assert!(
        text.contains("\ntools (15):\n  add: Adds two numbers."),
        "{text}"
    );
    assert!(text.contains("\nprompts (2):\n"), "{text}");
    assert!(text.contains("  greet(name*, style)"), "{text}");
    let json_output = mcp_assured(&["list", "--json", "--", example.to_str().unwrap()]);
    let listed: Value = serde_json::from_slice(&json_output.stdout).unwrap();
    assert_eq!(
        listed["resource_templates"][0]["uriTemplate"],
        json!("example://greeting/{name}")
    );
}

#[test]
fn call_prints_the_result_and_exits_by_it() {
    let example = example_server_binary();
    let example = example.to_str().unwrap();
    let output = mcp_assured(&[
        "call", "add", "--arg", "a=2", "--arg", "b=3.5", "--", example,
    ]);
    assert!(output.status.success(), "{}", stdout(&output));
    let result: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(result["structuredContent"], json!({"sum": 5.5}));
    let output = mcp_assured(&[
        "call",
        "echo",
        "--args-json",
        r#"{"message": "hi"}"#,
        "--",
        example,
    ]);
    let result: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(result["content"][0]["text"], json!("hi"));
    let failed = mcp_assured(&["call", "fail", "--", example]);
    assert_eq!(failed.status.code(), Some(1));
    let result: Value = serde_json::from_slice(&failed.stdout).unwrap();
    assert_eq!(result["isError"], json!(true));
}

#[test]
fn an_unreachable_server_exits_2_with_the_reason() {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let url = format!("http://127.0.0.1:{port}/mcp");
    for command in ["check", "list"] {
        let output = mcp_assured(&[command, &url]);
        assert_eq!(output.status.code(), Some(2));
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(
            stderr.trim(),
            format!(
                "mcp-assured: could not connect to {url}: nothing is listening there (connection refused); is the server running on that port?"
            )
        );
    }
    let bad = mcp_assured(&["call", "x", "--arg", "novalue", &url]);
    assert_eq!(bad.status.code(), Some(2));
}

/// `check --rest` adds the parity of a hybrid server's REST surface; a drifting one fails with
/// the exact differences.
#[test]
fn check_rest_reports_the_parity_of_a_hybrid_server() {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let base = runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let base = format!("http://{}", listener.local_addr().unwrap());
        let server = weather_server::WeatherServer::new("http://127.0.0.1:9");
        let options = weather_server::rest::RestOptions::default().drifting();
        tokio::spawn(weather_server::serve::serve_hybrid(
            listener, server, options,
        ));
        base
    });
    let output = mcp_assured(&[
        "check",
        "--json",
        "--no-server-tests",
        "--rest",
        &base,
        &format!("{base}/mcp"),
    ]);
    assert_eq!(output.status.code(), Some(1), "{}", stdout(&output));
    let report: Value = serde_json::from_str(&stdout(&output)).unwrap();
    let failed: Vec<&str> = report["parity_checks"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|check| check["status"] == "failed")
        .map(|check| check["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        failed,
        ["parity.input_schemas", "parity.unknown_tool"],
        "{report}"
    );
    let schemas = report["parity_checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|check| check["name"] == "parity.input_schemas")
        .unwrap();
    assert_eq!(
        schemas["reason"],
        json!("forecast: /properties/days/maximum: MCP 7, REST 14")
    );
    drop(runtime);
}
