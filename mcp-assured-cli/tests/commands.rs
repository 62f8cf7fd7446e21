//! `mcp-assured check`, `list` and `call` from the shell: output, JSON, JUnit XML and exit
//! statuses, against the selftest server (own tests, some failing), the example server
//! (passes every check) and nothing at all.

mod support;

use std::process::{Command, Output};

use mcp_assured::{
    fixture::free_port,
    wiremock::{
        Mock, MockServer, ResponseTemplate,
        matchers::{method, path_regex},
    },
};
use mcp_assured_tests::{
    example_server_binary,
    hybrid_faults::{self, HybridFault},
    peers::SELFTEST_SERVER,
};
use serde_json::{Value, json};
use weather_server::rest::RestOptions;

/// Runs the binary; a `--json` output must be valid against the published schema.
fn mcp_assured(args: &[&str]) -> Output {
    let output = Command::new(env!("CARGO_BIN_EXE_mcp-assured"))
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .expect("run mcp-assured");
    mcp_assured_tests::schemas::assert_json_output(args, &output.stdout);
    output
}

/// `mcp-assured <args> -- <example-server>`: the command run against the example server
/// over stdio.
fn on_example(args: &[&str]) -> Output {
    let example = example_server_binary();
    mcp_assured(&[args, &["--", example.to_str().unwrap()]].concat())
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
        // The two optional tests that fail warn.
        Some(&"16 passed, 4 failed, 27 skipped, 2 warned"),
        "{text}"
    );
    let xml = std::fs::read_to_string(&junit).unwrap();
    let _ = std::fs::remove_file(&junit);
    assert!(xml.contains(r#"<testsuites name="mcp-assured check" tests="49" skipped="27" failures="4" errors="0">"#), "{xml}");
    // The 8 tests and the convention's coverage.
    assert!(
        xml.contains(r#"<testsuite name="server-tests" tests="9""#),
        "{xml}"
    );
    assert!(
        xml.contains(r#"<failure message="1 of 2 checks failed (failed: echo trims whitespace)""#),
        "{xml}"
    );
}

/// A suite without `mcp.test.protocol`, and a test whose result has no `duration`: the text
/// and the JSON both carry the warnings, with the tests.
#[test]
fn check_warns_of_a_suite_the_convention_finds_incomplete() {
    let server = ["--", "python3", SELFTEST_SERVER, "--incomplete"];
    let text = stdout(&mcp_assured(&[&["check"][..], &server].concat()));
    let lines: Vec<&str> = text.lines().collect();
    assert!(
        lines.contains(
            &"WARN mcp.test.tools.no_duration: echo answers [its TestResult has no `duration` \
              (the time taken in ms), which the convention's Test Results Schema requires]"
        ),
        "{text}"
    );
    assert!(
        lines.contains(
            &"WARN server_tests.coverage: missing the required test mcp.test.protocol (the \
              mcp.test.* convention, \"Required Test Tools\": every MCP server should implement \
              mcp.test.capabilities and mcp.test.protocol); categories covered: protocol, tools \
              (2 of 4; none for resources, custom)"
        ),
        "{text}"
    );
    assert!(lines.last().unwrap().ends_with(", 2 warned"), "{text}");

    let output = mcp_assured(&[&["check", "--json"][..], &server].concat());
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    let tests = report["server_tests"].as_array().unwrap();
    let names: Vec<&str> = tests.iter().map(|t| t["name"].as_str().unwrap()).collect();
    assert_eq!(
        names,
        [
            "mcp.test.capabilities",
            "mcp.test.tools.no_duration",
            "server_tests.coverage"
        ]
    );
    assert_eq!(tests[1]["status"], json!("warned"));
    assert_eq!(tests[1]["problems"].as_array().unwrap().len(), 1);
    assert_eq!(tests[2]["status"], json!("warned"));
    assert_eq!(
        tests[2]["details"],
        json!({
            "tests": 2,
            "required": {"present": ["mcp.test.capabilities"], "missing": ["mcp.test.protocol"]},
            "categories": {
                "covered": ["protocol", "tools"],
                "not_covered": ["resources", "custom"],
                "other": [],
            },
        })
    );
    assert_eq!(report["summary"]["warned"], json!(2), "{report}");
}

#[test]
fn check_passes_on_the_example_server_and_speaks_json() {
    let output = on_example(&[
        "check",
        "--json",
        "--tool-args",
        r#"weather={"city": "Paris"}"#,
    ]);
    assert_eq!(output.status.code(), Some(0), "{}", stdout(&output));
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(
        report["summary"],
        // The CLI negotiates the newest revision: 2026-07-28, which has no `ping` and no
        // `logging/setLevel`; over stdio there are no HTTP headers to check.
        // The example server declares `logging`, which 2026-07-28 deprecates: a warning.
        // Over stdio the 11 checks of the HTTP transport and the 4 of authorization skip.
        json!({"total": 40, "passed": 21, "failed": 0, "skipped": 18, "warned": 1, "all_passed": true})
    );
    assert_eq!(report["server"]["name"], json!("mcp-assured-example"));
    assert_eq!(report["server_tests"], json!([]));
}

#[test]
fn list_shows_what_the_server_offers() {
    let output = on_example(&["list"]);
    let text = stdout(&output);
    assert!(output.status.success(), "{text}");
    assert!(
        text.contains("\ntools (15):\n  add: Adds two numbers."),
        "{text}"
    );
    assert!(text.contains("\nprompts (2):\n"), "{text}");
    assert!(text.contains("  greet(name*, style)"), "{text}");
    let json_output = on_example(&["list", "--json"]);
    let listed: Value = serde_json::from_slice(&json_output.stdout).unwrap();
    assert_eq!(
        listed["resource_templates"][0]["uriTemplate"],
        json!("example://greeting/{name}")
    );
}

/// `mcp-assured list -- server | head -3`: a reader that stops early ends the output, not
/// the command (no panic, exit status 101, backtrace); and the completion script alike.
#[test]
fn a_closed_stdout_ends_the_output_not_the_command() {
    let example = example_server_binary();
    for args in [
        &["list", "--", example.to_str().unwrap()][..],
        &[
            "call",
            "add",
            "--arg",
            "a=1",
            "--arg",
            "b=2",
            "--",
            example.to_str().unwrap(),
        ],
        &["completions", "bash"],
    ] {
        let (reader, writer) = std::io::pipe().unwrap();
        drop(reader);
        let output = Command::new(env!("CARGO_BIN_EXE_mcp-assured"))
            .args(args)
            .stdout(writer)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(0), "{args:?}: {stderr}");
        assert_eq!(stderr, "", "{args:?}");
    }
}

#[test]
fn call_prints_the_result_and_exits_by_it() {
    let output = on_example(&["call", "add", "--arg", "a=2", "--arg", "b=3.5"]);
    assert!(output.status.success(), "{}", stdout(&output));
    let result: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(result["structuredContent"], json!({"sum": 5.5}));
    let output = on_example(&["call", "echo", "--args-json", r#"{"message": "hi"}"#]);
    let result: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(result["content"][0]["text"], json!("hi"));
    let failed = on_example(&["call", "fail"]);
    assert_eq!(failed.status.code(), Some(1));
    let result: Value = serde_json::from_slice(&failed.stdout).unwrap();
    assert_eq!(result["isError"], json!(true));
}

#[test]
fn an_unreachable_server_exits_3_with_the_reason() {
    let url = format!("http://127.0.0.1:{}/mcp", free_port().unwrap());
    for command in ["check", "list"] {
        let output = mcp_assured(&[command, &url]);
        assert_eq!(output.status.code(), Some(3));
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

/// An option the command does not have, before the server, is a usage error naming it (it
/// was taken for the program to start: "could not start the server `--protocol-version …`").
#[test]
fn an_unknown_option_before_the_server_is_a_usage_error() {
    for command in ["check", "list", "fuzz"] {
        let output = mcp_assured(&[command, "--protocol-version", "2025-11-25", "--", "server"]);
        assert_eq!(output.status.code(), Some(2), "{command}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(
            stderr.contains("unknown option `--protocol-version`"),
            "{command}: {stderr}"
        );
    }
}

/// A hybrid weather server on a runtime of its own, whose weather API is a wiremock server
/// answering every endpoint the tools call, so that executions are compared on successes.
struct Hybrid {
    base: String,
    _backend: MockServer,
    _runtime: tokio::runtime::Runtime,
}

fn hybrid(options: RestOptions) -> Hybrid {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let (base, backend) = runtime.block_on(async {
        let backend = MockServer::start().await;
        let answers = [
            (
                "^/weather$",
                json!({"city": "London", "temperature": 15, "conditions": "cloudy"}),
            ),
            (
                "^/forecast$",
                json!({"city": "London", "days": [{"high": 11, "low": 4}]}),
            ),
            ("^/alerts/", json!({"alerts": []})),
        ];
        for (path, body) in answers {
            Mock::given(method("GET"))
                .and(path_regex(path))
                .respond_with(ResponseTemplate::new(200).set_body_json(body))
                .mount(&backend)
                .await;
        }
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let base = format!("http://{}", listener.local_addr().unwrap());
        let server = weather_server::WeatherServer::new(backend.uri());
        tokio::spawn(weather_server::serve::serve_hybrid(
            listener, server, options,
        ));
        (base, backend)
    });
    Hybrid {
        base,
        _backend: backend,
        _runtime: runtime,
    }
}

/// `check --rest` adds the parity of a hybrid server's REST surface, to the text, the JSON and
/// the JUnit report alike; a drifting one fails with the exact differences.
#[test]
fn check_rest_reports_the_parity_of_a_hybrid_server() {
    let server = hybrid(RestOptions::default().drifting());
    let mcp = format!("{}/mcp", server.base);
    let common = ["check", "--no-server-tests", "--rest", &server.base];
    let output = mcp_assured(&[&common[..], &["--json", &mcp]].concat());
    assert_eq!(output.status.code(), Some(1), "{}", stdout(&output));
    let report: Value = serde_json::from_str(&stdout(&output)).unwrap();
    let parity: Vec<(&str, &str, &str)> = report["parity_checks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|check| {
            (
                check["name"].as_str().unwrap(),
                check["status"].as_str().unwrap(),
                check["message"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        parity,
        [
            (
                "parity.tool_names",
                "passed",
                "the same 4 tools on both sides"
            ),
            ("parity.descriptions", "passed", "the same descriptions"),
            (
                "parity.input_schemas",
                "failed",
                "forecast: /properties/days/maximum: MCP 7, REST 14"
            ),
            (
                "parity.execution",
                "passed",
                "4 argument sets: both sides agree"
            ),
            (
                "parity.unknown_tool",
                "failed",
                "REST: expected TOOL_NOT_FOUND, got EXECUTION_ERROR (HTTP 500): no tool `mcp_assured_parity_no_such_tool`"
            ),
            (
                "parity.validation",
                "passed",
                "`current_weather` without its required arguments is refused on both sides"
            ),
            (
                "parity.auth",
                "skipped",
                "no credentials given to compare against"
            ),
            (
                "parity.metadata",
                "passed",
                "4 tools declare well-formed metadata, the same over MCP for 4"
            ),
        ],
        "{report}"
    );

    let junit =
        std::env::temp_dir().join(format!("mcp-assured-check-rest-{}.xml", std::process::id()));
    let output = mcp_assured(&[&common[..], &["--junit", junit.to_str().unwrap(), &mcp]].concat());
    let text = stdout(&output);
    assert_eq!(output.status.code(), Some(1), "{text}");
    let lines: Vec<&str> = text.lines().collect();
    for line in [
        "FAIL parity.input_schemas: forecast: /properties/days/maximum: MCP 7, REST 14",
        "PASS parity.execution: 4 argument sets: both sides agree",
        "SKIP parity.auth: no credentials given to compare against",
    ] {
        assert!(lines.contains(&line), "{line}\n{text}");
    }
    let xml = std::fs::read_to_string(&junit).unwrap();
    let _ = std::fs::remove_file(&junit);
    assert!(
        xml.contains(r#"<testsuite name="parity" tests="8" skipped="1" errors="0" failures="2">"#),
        "{xml}"
    );
    assert!(
        xml.contains(&format!(
            r#"<testcase name="parity.input_schemas" classname="parity.{mcp}""#
        )),
        "{xml}"
    );
    assert!(
        xml.contains(r#"<failure message="forecast: /properties/days/maximum: MCP 7, REST 14""#),
        "{xml}"
    );
}

/// The example hybrid server (with `fault` in front, from `mcp_assured_tests::hybrid_faults`)
/// on a runtime of its own, its API answering as the hybrid checks' tests have it.
fn hybrid_with_fault(fault: HybridFault) -> Hybrid {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let (base, backend) = runtime.block_on(async {
        let backend = MockServer::start().await;
        hybrid_faults::mount_api(&backend).await;
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let base = format!("http://{}", listener.local_addr().unwrap());
        let app = hybrid_faults::app(
            &backend.uri(),
            fault,
            tokio_util::sync::CancellationToken::new(),
        );
        tokio::spawn(async move { axum::serve(listener, app).await });
        (base, backend)
    });
    Hybrid {
        base,
        _backend: backend,
        _runtime: runtime,
    }
}

/// `check --rest` runs the hybrid checks with what they need from the command line: a token
/// of known scopes, a call known to run long, and arguments; every check passes on the
/// server as it is, and `hybrid.permissions` fails on one that ignores them. The token
/// never shows.
#[test]
fn check_rest_runs_the_hybrid_checks_with_a_limited_token_and_a_slow_call() {
    let statuses = |fault: HybridFault| {
        let server = hybrid_with_fault(fault);
        let mcp = format!("{}/mcp", server.base);
        let output = mcp_assured(&[
            "check",
            "--no-server-tests",
            "--json",
            "--bearer-token",
            hybrid_faults::ROOT_TOKEN,
            "--rest",
            &server.base,
            "--limited-token",
            hybrid_faults::READER_TOKEN,
            "--limited-scopes",
            "weather:read",
            "--slow-call",
            r#"forecast={"city":"London","days":2}"#,
            "--tool-args",
            r#"weather_report={"cities":["London","Oslo"]}"#,
            &mcp,
        ]);
        let text = stdout(&output);
        assert!(!text.contains("\"reader\""), "{text}");
        let report: Value = serde_json::from_str(&text).unwrap();
        let statuses: Vec<(String, String)> = report["hybrid_checks"]
            .as_array()
            .unwrap()
            .iter()
            .map(|entry| {
                (
                    entry["name"].as_str().unwrap().to_owned(),
                    entry["status"].as_str().unwrap().to_owned(),
                )
            })
            .collect();
        (output.status.code(), statuses, text)
    };
    let (code, checks, text) = statuses(HybridFault::None);
    assert_eq!(code, Some(0), "{text}");
    assert!(
        checks.iter().all(|(_, status)| status == "passed"),
        "{text}"
    );
    assert_eq!(checks.len(), 6, "{text}");
    let (code, checks, text) = statuses(HybridFault::IgnoresPermissions);
    assert_eq!(code, Some(1), "{text}");
    let failed: Vec<&str> = checks
        .iter()
        .filter(|(_, status)| status == "failed")
        .map(|(name, _)| name.as_str())
        .collect();
    assert_eq!(failed, ["hybrid.permissions"], "{text}");
}

/// `--bearer-token` reaches both sides, parity.auth tries both without it and with a wrong
/// one, the token never shows, and the guarded weather server passes: exit status 0.
#[test]
fn check_rest_with_a_bearer_token_passes_on_a_guarded_hybrid_server() {
    let token = "s3cret-parity-token";
    let server = hybrid(RestOptions::default().bearer_token(token));
    let mcp = format!("{}/mcp", server.base);
    let output = mcp_assured(&[
        "check",
        "--no-server-tests",
        "--bearer-token",
        token,
        "--rest",
        &server.base,
        &mcp,
    ]);
    let text = stdout(&output);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{text}\n{stderr}");
    let lines: Vec<&str> = text.lines().collect();
    let parity: Vec<&str> = lines
        .iter()
        .copied()
        .filter(|line| line.contains(" parity."))
        .collect();
    assert_eq!(
        parity,
        [
            "PASS parity.tool_names: the same 4 tools on both sides",
            "PASS parity.descriptions: the same descriptions",
            "PASS parity.input_schemas: the same input schemas",
            "PASS parity.execution: 4 argument sets: both sides agree",
            "PASS parity.unknown_tool: an unknown tool is TOOL_NOT_FOUND over REST and -32602 over MCP",
            "PASS parity.validation: `current_weather` without its required arguments is refused on both sides",
            "PASS parity.auth: both sides refuse requests without credentials or with a wrong bearer token (REST: listing and executing)",
            "PASS parity.metadata: 4 tools declare well-formed metadata, the same over MCP for 4",
        ],
        "{text}\n{stderr}"
    );
    // Without --tool-args, tools.structured_output has nothing to call; resources and prompts
    // are not advertised, so their pagination and unknown-item errors are skipped too; on
    // 2026-07-28 (negotiated) `ping` and `logging/setLevel` do not exist. The token is
    // pre-shared: no OAuth metadata to check, and a warning that says so.
    assert!(
        text.contains("WARN auth.challenge: `WWW-Authenticate: Bearer realm=\"weather-server\"` names no `resource_metadata`"),
        "{text}"
    );
    // The hybrid checks: what needs more than the server (limited credentials, a slow
    // call) is skipped; whether hybrid.max_concurrency can judge a tool this quick varies,
    // so the counts are not pinned, but nothing fails.
    let hybrid: Vec<&str> = lines
        .iter()
        .filter(|line| line.contains(" hybrid."))
        .map(|line| line.split(':').next().unwrap())
        .collect();
    assert_eq!(
        hybrid,
        [
            "PASS hybrid.declarations",
            "SKIP hybrid.permissions",
            "SKIP hybrid.max_execution_time",
            if text.contains("SKIP hybrid.max_concurrency") {
                "SKIP hybrid.max_concurrency"
            } else {
                "PASS hybrid.max_concurrency"
            },
            "PASS hybrid.max_payload_size",
            "PASS hybrid.streaming",
        ],
        "{text}"
    );
    let summary = lines.last().unwrap();
    assert!(
        summary.contains(" passed, 0 failed, ") && summary.ends_with(" skipped, 1 warned"),
        "{text}\n{stderr}"
    );
    assert!(
        !text.contains(token) && !stderr.contains(token),
        "{text}\n{stderr}"
    );

    // The token in a --config file's headers instead: sent to the REST side too.
    let config = std::env::temp_dir().join(format!(
        "mcp-assured-rest-config-{}.json",
        std::process::id()
    ));
    let servers = json!({"mcpServers": {"hybrid": {
        "url": mcp, "headers": {"Authorization": format!("Bearer {token}")}
    }}});
    std::fs::write(&config, servers.to_string()).unwrap();
    let configured = mcp_assured(&[
        "check",
        "--no-server-tests",
        "--rest",
        &server.base,
        "--config",
        config.to_str().unwrap(),
    ]);
    let _ = std::fs::remove_file(&config);
    let text = stdout(&configured);
    assert_eq!(configured.status.code(), Some(0), "{text}");
    assert!(
        text.contains("PASS parity.execution: 4 argument sets: both sides agree"),
        "{text}"
    );
    assert!(!text.contains(token), "{text}");
}

/// `--startup-timeout` bounds a server that never answers `initialize`, apart from the
/// request `--timeout`; the message says which limit ran out.
#[test]
fn a_server_that_never_starts_is_cut_off_by_the_startup_timeout() {
    let started = std::time::Instant::now();
    let output = mcp_assured(&["list", "--startup-timeout", "1", "--", "sleep", "30"]);
    assert_eq!(output.status.code(), Some(3));
    assert!(
        started.elapsed() < std::time::Duration::from_secs(10),
        "took {:?}",
        started.elapsed()
    );
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("`initialize` got no answer within 1s"),
        "{stderr}"
    );
    assert!(stderr.contains("start-up"), "{stderr}");
}

/// `--protocol newest` negotiates 2026-07-28 with the example server (rmcp); a pin the
/// server does not speak exits 2 naming what it offers.
#[test]
fn protocol_newest_negotiates_and_a_pin_is_honoured_or_refused() {
    let newest = on_example(&["list", "--protocol", "newest"]);
    assert!(newest.status.success(), "{}", stdout(&newest));
    assert!(
        stdout(&newest).starts_with("mcp-assured-example 0.1.0 on protocol 2026-07-28"),
        "{}",
        stdout(&newest)
    );
    let older = on_example(&["list", "--protocol", "2025-06-18"]);
    assert!(
        stdout(&older).starts_with("mcp-assured-example 0.1.0 on protocol 2025-06-18"),
        "{}",
        stdout(&older)
    );
    let unknown = on_example(&["list", "--protocol", "1999-01-01"]);
    assert_eq!(unknown.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&unknown.stderr).contains("unknown protocol version `1999-01-01`")
    );
}

/// On 2026-07-28 the checks follow the revision: `ping` and `logging/setLevel` are gone
/// (skipped, saying so), an unknown resource is -32602; the example server passes them all.
#[test]
fn check_on_2026_07_28_follows_the_revision() {
    let output = on_example(&["check", "--protocol", "newest"]);
    let text = stdout(&output);
    assert!(output.status.success(), "{text}");
    assert!(text.contains("on protocol 2026-07-28"), "{text}");
    assert!(
        text.contains(
            "SKIP ping: `ping` is removed in 2026-07-28; `server/discover` answered instead"
        ),
        "{text}"
    );
    assert!(
        text.contains("SKIP capabilities.logging: `logging/setLevel` is removed"),
        "{text}"
    );
    assert!(
        text.contains("PASS errors.unknown_resource: refused with -32602 (invalid params, as 2026-07-28 has it)"),
        "{text}"
    );
    assert!(text.contains("PASS tools.invalid_arguments"), "{text}");
}

/// `check` prints each check as it ends, not all at the end: against a server that holds
/// each `tools/call` answer 1 s (the fault server's `late-answer`, over stdio), the first
/// check's line is out while the run still has at least a second to go.
#[test]
fn check_prints_each_check_as_it_ends() {
    use std::io::{BufRead, BufReader};
    use std::process::Stdio;
    use std::time::{Duration, Instant};

    let fault_server = mcp_assured_tests::workspace_binary("mcp-assured-tests", "fault-server");
    let mut child = Command::new(env!("CARGO_BIN_EXE_mcp-assured"))
        .args([
            "check",
            "--no-server-tests",
            "--protocol",
            "2025-11-25",
            "--",
        ])
        .arg(fault_server)
        .args(["--fault", "late-answer"])
        .env("NO_COLOR", "1")
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let header = lines.next().unwrap().unwrap();
    assert!(header.starts_with("fault-server"), "{header}");
    let first = lines.next().unwrap().unwrap();
    let first_at = Instant::now();
    assert!(first.starts_with("PASS initialize: "), "{first}");
    assert!(
        child.try_wait().unwrap().is_none(),
        "the run ended before its first line"
    );
    let rest: Vec<String> = lines.map(Result::unwrap).collect();
    child.wait().unwrap();
    let after_first = first_at.elapsed();
    assert!(
        rest.last().is_some_and(|line| line.contains(" passed, ")),
        "{rest:#?}"
    );
    assert!(
        after_first >= Duration::from_secs(1),
        "the first line came only {after_first:?} before the end: {rest:#?}"
    );
}

/// `--skip` turns a known fault into a skip that still says what it found, so CI can pass on
/// a server whose SDK has it (the Python SDK answers an unknown tool with `isError` and an
/// unknown prompt with -32603); a name that is no check is a usage error.
#[test]
fn check_skip_reports_known_faults_as_skipped_with_what_they_found() {
    let python = mcp_assured_tests::peers::python();
    let script = mcp_assured_tests::peers::python_server_script();
    let server = [python.to_str().unwrap(), script.to_str().unwrap()];

    // The Python SDK's deviations break no MUST: warnings, with the clause and the SDK named,
    // and exit 0.
    let warning = mcp_assured(&[&["check", "--"][..], &server].concat());
    let text = stdout(&warning);
    assert_eq!(warning.status.code(), Some(0), "{text}");
    assert!(
        text.contains("WARN errors.unknown_tool: answered with a tool error"),
        "{text}"
    );
    assert!(text.contains("the Python SDK's MCPServer"), "{text}");
    assert!(
        text.contains("     no keyword, MCP 2026-07-28 › Server › Tools › Error Handling: "),
        "{text}"
    );
    assert!(text.contains(" 0 failed, "), "{text}");

    // --strict fails them.
    let strict = mcp_assured(&[&["check", "--strict", "--"][..], &server].concat());
    let text = stdout(&strict);
    assert_eq!(strict.status.code(), Some(1), "{text}");
    assert!(
        text.contains("FAIL errors.unknown_tool: (a warning, failed by strict) answered"),
        "{text}"
    );

    let skipping = mcp_assured(
        &[
            &[
                "check",
                "--strict",
                "--skip",
                "errors.unknown_tool",
                "--skip",
                "errors.unknown_p*",
                "--",
            ][..],
            &server,
        ]
        .concat(),
    );
    let text = stdout(&skipping);
    assert_eq!(skipping.status.code(), Some(0), "{text}");
    assert!(
        text.contains(
            "SKIP errors.unknown_tool: skipped on request; it found: FAIL (a warning, failed by \
             strict) answered with a tool error"
        ),
        "{text}"
    );
    assert!(
        text.contains("SKIP errors.unknown_prompt: skipped on request; it found: FAIL (a warning, failed by strict) expected JSON-RPC -32602"),
        "{text}"
    );
    assert!(text.contains(" 0 failed, "), "{text}");

    let typo = mcp_assured(
        &[
            &["check", "--skip", "errors.unknwn_tool", "--"][..],
            &server,
        ]
        .concat(),
    );
    assert_eq!(typo.status.code(), Some(2));
    let message = String::from_utf8_lossy(&typo.stderr);
    assert!(
        message.contains(
            "--skip \"errors.unknwn_tool\" names no check. The checks: initialize, ping,"
        ),
        "{message}"
    );
}

/// `--strict` fails every warning, the server tests' among them (a suite without a required
/// test, a TestResult without `duration`), not only the protocol checks'.
#[test]
fn check_strict_fails_the_server_tests_warnings_too() {
    let server = [
        "python3",
        mcp_assured_tests::peers::SELFTEST_SERVER,
        "--incomplete",
    ];
    let lenient = mcp_assured(&[&["check", "--"][..], &server].concat());
    let text = stdout(&lenient);
    assert!(
        text.contains("WARN mcp.test.tools.no_duration: echo answers"),
        "{text}"
    );
    let strict = mcp_assured(&[&["check", "--strict", "--"][..], &server].concat());
    let text = stdout(&strict);
    assert_eq!(strict.status.code(), Some(1), "{text}");
    for test in ["mcp.test.tools.no_duration", "server_tests.coverage"] {
        assert!(
            text.contains(&format!("FAIL {test}: (a warning, failed by strict) ")),
            "{test}: {text}"
        );
    }
    assert!(!text.contains("WARN "), "{text}");
}
