//! The `mcp.test.*` convention against a server that has passing, failing, skipped, slow and
//! malformed test tools (`tests/peers/selftest_server.py`, written against the wire protocol
//! so it can send `testMetadata`, which SDKs drop).

use std::time::Duration;

use mcp_assured::{
    McpClient,
    checks::CheckOptions,
    mcp_test,
    report::Status,
    server_tests::{COVERAGE, is_test_tool},
};
use mcp_assured_tests::peers::SELFTEST_SERVER;
use serde_json::json;

#[mcp_test(server = command("python3", SELFTEST_SERVER), timeout = "30s")]
mod selftest_server {
    use super::*;

    #[mcp_test]
    async fn discovers_test_tools_in_priority_order(client: McpClient) {
        let tests = client.server_test_tools().await.unwrap();
        let order: Vec<(&str, u64)> = tests
            .iter()
            .map(|t| (t.name.as_str(), t.priority))
            .collect();
        assert_eq!(
            order,
            [
                ("mcp.test.capabilities", 1),
                ("mcp.test.protocol", 1),
                ("mcp.test.custom.slow", 2),
                ("mcp.test.tools.failing", 2),
                ("mcp.test.custom.bad_metadata", 3),
                ("mcp.test.custom.bad_result", 3),
                ("mcp.test.custom.tool_error", 3),
                ("mcp.test.resources.skipped", 3),
            ]
        );
        let slow = &tests[2];
        assert_eq!(slow.timeout, Duration::from_millis(200));
        assert_eq!(slow.category.as_deref(), Some("custom"));
        let production = client.list_tools_excluding_tests().await.unwrap();
        assert_eq!(production.len(), 1);
        assert_eq!(production[0].name, "echo");
        assert!(!is_test_tool(&production[0].name));
    }

    #[mcp_test]
    async fn runs_every_test_and_judges_each(client: McpClient) {
        let report = client.run_server_tests().await.unwrap();
        let status = |name: &str| report.entry(name).unwrap().status;
        assert_eq!(status("mcp.test.capabilities"), Status::Passed);
        assert_eq!(status("mcp.test.protocol"), Status::Passed);
        assert_eq!(status("mcp.test.tools.failing"), Status::Failed);
        assert_eq!(status("mcp.test.resources.skipped"), Status::Skipped);
        assert_eq!(status("mcp.test.custom.slow"), Status::Failed);
        // Optional (priority 3): their failures warn.
        assert_eq!(status("mcp.test.custom.bad_result"), Status::Warned);
        assert_eq!(status("mcp.test.custom.tool_error"), Status::Warned);
        // Malformed metadata fails the test; it still ran (with defaults), and says how.
        let bad_metadata = report.entry("mcp.test.custom.bad_metadata").unwrap();
        assert_eq!(bad_metadata.status, Status::Failed);
        assert_eq!(
            bad_metadata.problems.len(),
            3,
            "{:?}",
            bad_metadata.problems
        );
        assert_eq!(
            json!(bad_metadata.problems),
            bad_metadata.details["tool"]["metadata_problems"]
        );
        assert!(
            bad_metadata
                .message
                .starts_with("malformed testMetadata (testMetadata.category is not a string: 7; "),
            "{}",
            bad_metadata.message
        );
        assert!(
            bad_metadata
                .message
                .ends_with("; the test itself: ran despite its metadata"),
            "{}",
            bad_metadata.message
        );
        // The 8 tests, then the coverage: the required two are there, every category too.
        let coverage = report.entries().last().unwrap();
        assert_eq!(
            (coverage.name.as_str(), coverage.status),
            (COVERAGE, Status::Passed)
        );
        assert_eq!(
            coverage.message,
            "the required tests are present (mcp.test.capabilities, mcp.test.protocol); \
             categories covered: protocol, resources, tools, custom (4 of 4)"
        );
        assert_eq!(coverage.details["tests"], json!(8));
        assert_eq!(
            (
                report.passed(),
                report.failed(),
                report.skipped(),
                report.warned()
            ),
            (3, 3, 1, 2)
        );
        assert!(!report.is_success());

        // Arguments come from the input schema.
        let protocol = report.entry("mcp.test.protocol").unwrap();
        assert_eq!(
            protocol.details["arguments"],
            json!({"echo": "mcp-assured"})
        );
        assert_eq!(protocol.details["result"]["success"], json!(true));
        assert_eq!(protocol.message, "echoed 'mcp-assured'");
        // The slow test is cut at its own timeout, not the client's.
        let slow = report.entry("mcp.test.custom.slow").unwrap();
        let elapsed = slow.duration.unwrap();
        assert!(elapsed < Duration::from_secs(2), "{elapsed:?}");
        assert!(
            slow.message.starts_with("no answer within 200 ms"),
            "{}",
            slow.message
        );
        let failing = report.entry("mcp.test.tools.failing").unwrap();
        assert_eq!(
            failing.message,
            "1 of 2 checks failed (failed: echo trims whitespace)"
        );
        let bad_result = report.entry("mcp.test.custom.bad_result").unwrap();
        assert_eq!(
            bad_result.message,
            "optional test (priority 3) failed: the result is not a TestResult: \"All good!\""
        );

        // The run went on after the failures, and the server still answers.
        client.ping().await.unwrap();
        let text = report.to_string();
        assert!(
            text.ends_with("3 passed, 3 failed, 1 skipped, 2 warned"),
            "{text}"
        );
        assert!(text.starts_with("PASS mcp.test.capabilities: "), "{text}");
        let capabilities = &report.entry("mcp.test.capabilities").unwrap().details["tool"];
        assert_eq!(
            (&capabilities["category"], &capabilities["priority"]),
            (&json!("protocol"), &json!(1))
        );
        assert!(
            text.contains("; the test itself: ran despite its metadata [testMetadata.category is not a string: 7] [testMetadata.priority must be 1, 2 or 3, not \"high\"; using 3] ["),
            "{text}"
        );
    }
}

/// A suite without `mcp.test.protocol`, whose other test returns no `duration`: both are
/// reported, as warnings, and nothing fails.
#[mcp_test(server = command("python3", SELFTEST_SERVER, "--incomplete"), timeout = "30s")]
async fn an_incomplete_suite_is_warned_of_what_the_convention_asks(client: McpClient) {
    let report = client.run_server_tests().await.unwrap();
    let names: Vec<&str> = report.entries().iter().map(|e| e.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "mcp.test.capabilities",
            "mcp.test.tools.no_duration",
            COVERAGE
        ]
    );
    let coverage = report.entry(COVERAGE).unwrap();
    assert_eq!(coverage.status, Status::Warned, "{report}");
    assert_eq!(
        coverage.message,
        "missing the required test mcp.test.protocol (the mcp.test.* convention, \
         \"Required Test Tools\": every MCP server should implement mcp.test.capabilities \
         and mcp.test.protocol); categories covered: protocol, tools (2 of 4; none for \
         resources, custom)"
    );
    assert_eq!(
        coverage.details["required"],
        json!({"present": ["mcp.test.capabilities"], "missing": ["mcp.test.protocol"]})
    );
    // A TestResult without `duration` passed its checks: a warning, saying what is missing.
    let no_duration = report.entry("mcp.test.tools.no_duration").unwrap();
    assert_eq!(no_duration.status, Status::Warned, "{report}");
    assert_eq!(no_duration.message, "echo answers");
    assert_eq!(
        no_duration.problems,
        [
            "its TestResult has no `duration` (the time taken in ms), which the convention's \
          Test Results Schema requires"
        ]
    );
    assert_eq!(
        report.entry("mcp.test.capabilities").unwrap().problems,
        Vec::<String>::new()
    );
    assert_eq!((report.passed(), report.warned()), (1, 2), "{report}");
    assert!(report.is_success(), "{report}");
    let text = report.to_string();
    assert!(
        text.contains(
            "WARN mcp.test.tools.no_duration: echo answers [its TestResult has no `duration`"
        ),
        "{text}"
    );
    assert!(
        text.ends_with("1 passed, 0 failed, 0 skipped, 2 warned"),
        "{text}"
    );
}

/// Each protocol check finds what the broken server breaks, for its reason, graded by the
/// clause it tests: a MUST broken fails, a SHOULD (or a rule without a keyword) warns.
#[mcp_test(server = command("python3", SELFTEST_SERVER, "--broken"), timeout = "30s")]
async fn every_check_finds_what_the_broken_server_breaks_for_its_reason(client: McpClient) {
    let options = CheckOptions::default().tool_arguments("shaped", json!({}));
    let report = client.check_with(&options).await;
    let finding = |name: &str, graded: Status| {
        let check = report
            .entry(name)
            .unwrap_or_else(|| panic!("no check {name} in\n{report}"));
        assert_eq!(check.status, graded, "{name}:\n{report}");
        let clause = check.clause.expect("a finding names its clause");
        assert_eq!(
            clause.level.is_requirement(),
            graded == Status::Failed,
            "{name}: {clause}"
        );
        check.message.clone()
    };
    let failure = |name: &str| finding(name, Status::Failed);
    let warning = |name: &str| finding(name, Status::Warned);
    for capability in ["capabilities.logging", "capabilities.completions"] {
        assert!(
            warning(capability).contains("should be refused with -32601 (method not found), got:")
        );
    }
    assert!(warning("pagination.prompts").contains("the cursor \"again\" came back on page 2"));
    let names = warning("tools.names");
    assert!(
        names.contains("\"has space\" is not 1–128 characters"),
        "{names}"
    );
    assert!(names.contains("\"good\" is listed twice"), "{names}");
    let schemas = failure("tools.input_schemas");
    assert!(
        schemas.starts_with("`bad_schema`: inputSchema must have \"type\": \"object\""),
        "{schemas}"
    );
    assert!(
        schemas.contains("`bad_schema`: inputSchema is not a valid JSON Schema"),
        "{schemas}"
    );
    assert!(
        warning("errors.unknown_tool")
            .starts_with("answered with a tool error (isError) instead of JSON-RPC -32602")
    );
    // -32602 on 2025-11-25: the code 2026-07-28 gives it, a SHOULD broken there.
    assert!(warning("errors.unknown_resource").starts_with("refused with -32602"));
    assert!(
        warning("errors.unknown_prompt")
            .starts_with("expected JSON-RPC -32602 (invalid params) for an unknown prompt, got:")
    );
    assert!(warning("errors.unknown_method").contains("-32603"));
    assert!(
        failure("tools.structured_output")
            .starts_with("`shaped`: structuredContent violates its outputSchema")
    );
    let loose = failure("tools.invalid_arguments");
    assert!(
        loose.contains("`loose` accepted {} (without required `count`)"),
        "{loose}"
    );
    assert!(loose.contains("(with a wrong type for `count`)"), "{loose}");
    // `bad_schema`'s `"type": "objekt"` breaks the revision's schema too, which says
    // `"type": "object"`.
    assert!(
        failure("wire.schema").contains(
            r#"tools/list at /result/tools/3/inputSchema/type: "object" was expected (ListToolsResult) (×2)"#
        ),
        "{}",
        failure("wire.schema")
    );
    // What the server gets right still passes.
    for passing in [
        "initialize",
        "ping",
        "capabilities.tools",
        "capabilities.resources",
        "pagination.tools",
    ] {
        assert_eq!(
            report.entry(passing).unwrap().status,
            Status::Passed,
            "{passing}:\n{report}"
        );
    }
    let text = report.to_string();
    // The 5 checks of 2026-07-28 do not apply on 2025-11-25, nor the 15 of HTTP and
    // authorization over stdio.
    assert!(
        text.ends_with("8 passed, 4 failed, 20 skipped, 8 warned"),
        "{text}"
    );
    // Strict, every warning fails.
    let strict = client.check_with(&options.strict(true)).await;
    assert_eq!((strict.failed(), strict.warned()), (12, 0), "{strict}");
}

/// Our verdicts on server-everything: everything passes but two error codes, where it
/// differs from MCP 2025-11-25 without breaking a MUST (an unknown tool answered as a tool
/// error; an unknown resource as -32602 rather than -32002): warnings. It has no
/// `mcp.test.*` tools.
#[mcp_test(
    server = command(mcp_assured_tests::peers::node(), mcp_assured_tests::peers::server_everything()),
    transport = [stdio(args("stdio")), http(args("streamableHttp"))],
    timeout = "120s",
)]
async fn server_everything_verdicts(client: McpClient) {
    assert!(client.server_test_tools().await.unwrap().is_empty());
    let report = client.check().await;
    let with = |status: Status| -> Vec<&str> {
        report
            .entries()
            .iter()
            .filter(|check| check.status == status)
            .map(|check| check.name.as_str())
            .collect()
    };
    // Its SDK's answers to an unknown tool and resource break no MUST of 2025-11-25.
    let mut warned = vec!["errors.unknown_tool", "errors.unknown_resource"];
    let mut failed = vec![];
    if client.target().starts_with("http") {
        // Its HTTP transport: any Origin served (DNS rebinding, as the official conformance
        // suite finds too: a MUST), and a deleted session served with 400, not 404 (a MUST);
        // any Host served (a SHOULD of the security best practices), 400 for a session never
        // issued (which no sentence names) and no `retry` on its resumable events (a SHOULD).
        failed.extend(["http.origin_validation", "http.session_delete"]);
        warned.extend([
            "http.host_validation",
            "http.session_unknown",
            "http.resumability",
        ]);
    }
    assert_eq!(with(Status::Failed), failed, "{report}");
    assert_eq!(with(Status::Warned), warned, "{report}");
    assert!(
        report
            .entry("errors.unknown_resource")
            .unwrap()
            .message
            .starts_with("refused with -32602 (invalid params), the code SEP-2164 gives it"),
        "{report}"
    );
    let expected = if client.target().starts_with("http") {
        (23, 10)
    } else {
        (17, 21)
    };
    assert_eq!((report.passed(), report.skipped()), expected, "{report}");
}

/// A server that answers an unknown method with a result: the failure says what was
/// expected, not only what came.
#[mcp_test(
    server = command("python3", SELFTEST_SERVER, "--answers-anything"),
    protocol = "2025-11-25"
)]
async fn an_unknown_method_answered_says_what_was_expected(client: McpClient) {
    let report = client.check().await;
    let entry = report.entry("errors.unknown_method").unwrap();
    assert_eq!(entry.status, Status::Failed, "{report}");
    assert_eq!(
        entry.message,
        "expected JSON-RPC -32601 (method not found) for an unknown method, but it was answered \
         with a result: {}"
    );
}

/// A server that stops answering: ping fails once, the rest is skipped rather than each
/// check waiting out its own timeout.
#[mcp_test(
    server = command("python3", SELFTEST_SERVER, "--hang"),
    request_timeout = "300ms",
    timeout = "20s"
)]
async fn a_silent_server_fails_ping_and_skips_the_rest(client: McpClient) {
    let started = std::time::Instant::now();
    let report = client.check().await;
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "{:?}",
        started.elapsed()
    );
    let ping = report.entry("ping").unwrap();
    assert_eq!(ping.status, Status::Failed);
    // Each check is timed; ping waited out the request timeout.
    let waited = ping.duration.unwrap();
    assert!(waited >= Duration::from_millis(300), "{waited:?}");
    assert!(
        ping.message.contains("got no answer within 300ms"),
        "{}",
        ping.message
    );
    assert_eq!(
        (report.passed(), report.failed(), report.skipped()),
        (2, 1, 37),
        "{report}"
    );
}
