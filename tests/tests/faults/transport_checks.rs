//! The checks of the HTTP transport, each failing, saying what was expected and what came,
//! on the fault server with the fault that breaks exactly it (and nothing else failing),
//! and passing on servers that keep the transport's rules: the fault server itself over
//! streamable HTTP and HTTP+SSE, on both revisions, and the Python SDK's server.

use std::sync::{Arc, Mutex};

use mcp_assured::{
    McpAssured,
    checks::{CHECKS, CheckOptions, HTTP_TRANSPORT_CHECKS},
    report::{Report, Status},
};
use mcp_assured_tests::{faults::Fault, peers, server};

use crate::support::{TIMEOUT, http_server, sse_server, tag};

/// The checks HTTP+SSE has: the rest are streamable HTTP's.
const SSE_CHECKS: [&str; 3] = [
    "http.host_validation",
    "http.origin_validation",
    "http.session_unknown",
];

/// The checks of the fault server with `fault` over `transport` (`http` or `sse`), on
/// `protocol` (the newest when `None`).
async fn checks_of(fault: Fault, transport: &str, protocol: Option<&str>) -> Report {
    let tag = tag();
    let server = match transport {
        "sse" => sse_server(fault, &tag).await,
        _ => http_server(fault, &tag).await,
    };
    let mut builder = McpAssured::client()
        .base_uri(server.url().unwrap())
        .timeout(TIMEOUT);
    if let Some(protocol) = protocol {
        builder = builder.protocol_version(protocol);
    }
    let client = builder.build().await.unwrap();
    let report = client.check().await;
    client.close().await.unwrap();
    report
}

/// Asserts that `failing` found its fault, with a message containing each of `says`, graded
/// by its clause (failed for a MUST broken, warned otherwise); that no other check failed;
/// and that every other transport check passed (over HTTP+SSE: those it has).
#[track_caller]
fn only_this_fails(report: &Report, transport: &str, failing: Option<(&str, &[&str])>) {
    let mut musts_broken = 0;
    for name in HTTP_TRANSPORT_CHECKS {
        let entry = report
            .entry(name)
            .unwrap_or_else(|| panic!("no {name} in {report}"));
        match failing {
            Some((failed, says)) if failed == name => {
                let clause = entry.clause.expect("a finding names the clause it breaks");
                let graded = if clause.level.is_requirement() {
                    musts_broken += 1;
                    Status::Failed
                } else {
                    Status::Warned
                };
                assert_eq!(entry.status, graded, "{report}");
                for said in says {
                    assert!(
                        entry.message.contains(said),
                        "{said:?} not in: {}",
                        entry.message
                    );
                }
            }
            _ if transport == "sse" && !SSE_CHECKS.contains(&name) => {
                assert_eq!(entry.status, Status::Skipped, "{name}: {report}");
            }
            _ => assert_eq!(entry.status, Status::Passed, "{name}: {report}"),
        }
    }
    assert_eq!(report.failed(), musts_broken, "{report}");
}

async fn only_fails(fault: Fault, check: &str, says: &[&str]) {
    let report = checks_of(fault, "http", None).await;
    only_this_fails(&report, "http", Some((check, says)));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_that_keeps_the_transport_passes_on_both_revisions() {
    for protocol in [None, Some("2025-11-25")] {
        let report = checks_of(Fault::None, "http", protocol).await;
        only_this_fails(&report, "http", None);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_that_keeps_the_sse_transport_passes() {
    let report = checks_of(Fault::None, "sse", None).await;
    only_this_fails(&report, "sse", None);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_open_to_any_host_fails() {
    let says = [
        "expected HTTP 403 (or another 4xx)",
        "`Host: evil.example.com`",
        "DNS rebinding",
        "got HTTP 200",
    ];
    only_fails(Fault::AnyHost, "http.host_validation", &says).await;
    let report = checks_of(Fault::AnyHost, "sse", None).await;
    only_this_fails(&report, "sse", Some(("http.host_validation", &says)));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_open_to_any_origin_fails() {
    let says = [
        "expected HTTP 403",
        "`Origin: http://evil.example.com`",
        "got HTTP 200",
    ];
    only_fails(Fault::AnyOrigin, "http.origin_validation", &says).await;
    let report = checks_of(Fault::AnyOrigin, "sse", None).await;
    only_this_fails(&report, "sse", Some(("http.origin_validation", &says)));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_that_serves_requests_without_a_session_fails() {
    only_fails(
        Fault::SessionOptional,
        "http.session_required",
        &[
            "expected HTTP 400",
            "without the Mcp-Session-Id issued at `initialize`",
            "got HTTP 200",
        ],
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_that_serves_an_unknown_session_fails() {
    only_fails(
        Fault::UnknownSessionServed,
        "http.session_unknown",
        &[
            "expected HTTP 404",
            "which the server never issued",
            "got HTTP 200",
        ],
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_whose_delete_ends_nothing_fails() {
    only_fails(
        Fault::DeleteIgnored,
        "http.session_delete",
        &[
            "DELETE answered HTTP 200",
            "its id get 404",
            "under it got HTTP 200",
        ],
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_that_takes_any_protocol_version_header_fails() {
    only_fails(
        Fault::AnyProtocolHeader,
        "http.protocol_version_header",
        &[
            "expected HTTP 400",
            "`MCP-Protocol-Version: 1999-01-01`",
            "got HTTP 200",
        ],
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_that_answers_notifications_with_a_body_fails() {
    only_fails(
        Fault::NotificationAnswered,
        "http.accepted_with_202",
        &[
            "expected HTTP 202 with no body",
            "`notifications/initialized` got HTTP 200 (application/json)",
        ],
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_that_ignores_accept_fails() {
    only_fails(
        Fault::IgnoresAccept,
        "http.accept",
        &[
            "as the request's Accept asked",
            "`Accept: application/json` got HTTP 200 (text/event-stream)",
        ],
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_get_answered_with_json_fails() {
    only_fails(
        Fault::GetNotSse,
        "http.get_stream",
        &["or be refused with 405", "got HTTP 200 (application/json)"],
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn events_with_ids_that_cannot_resume_fail() {
    only_fails(
        Fault::ResumeRefused,
        "http.resumability",
        &["`Last-Event-ID", "got HTTP 400"],
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_of_one_stream_at_a_time_fails() {
    only_fails(
        Fault::OneStreamAtATime,
        "http.concurrent_streams",
        &["4 `ping` requests posted at once", "got HTTP 409"],
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_python_sdks_server_keeps_the_transport() {
    let server = server::start(
        &mcp_assured::fixture::ServerCommand::new(peers::python())
            .arg(peers::python_server_script())
            .args(["--transport", "streamable-http", "--port", "{port}"]),
        "/mcp",
    )
    .await;
    let client = McpAssured::client()
        .base_uri(server.url().unwrap())
        .build()
        .await
        .unwrap();
    let report = client.check().await;
    for name in HTTP_TRANSPORT_CHECKS {
        let entry = report.entry(name).unwrap();
        // Its events carry no ids: it offers no resumption.
        let expected = if name == "http.resumability" {
            Status::Skipped
        } else {
            Status::Passed
        };
        assert_eq!(entry.status, expected, "{name}: {report}");
    }
    // What it gets wrong, as the README's table says: an unknown tool as a tool error, and
    // an unknown prompt as an internal error rather than -32602. Neither breaks a MUST (a
    // classification without a keyword, and a SHOULD): warnings, no failure.
    let warned: Vec<&str> = report
        .entries()
        .iter()
        .filter(|entry| entry.status == Status::Warned)
        .map(|entry| entry.name.as_str())
        .collect();
    assert_eq!(
        warned,
        ["errors.unknown_tool", "errors.unknown_prompt"],
        "{report}"
    );
    assert_eq!(report.failed(), 0, "{report}");
    let prompt = report.entry("errors.unknown_prompt").unwrap();
    assert!(
        prompt.message.contains("-32603 (INTERNAL_ERROR)"),
        "{}",
        prompt.message
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn progress_sees_each_check_as_it_ends() {
    let tag = tag();
    let server = http_server(Fault::None, &tag).await;
    let client = McpAssured::client()
        .base_uri(server.url().unwrap())
        .timeout(TIMEOUT)
        .build()
        .await
        .unwrap();
    let seen = Arc::new(Mutex::new(Vec::new()));
    let seen_by_progress = seen.clone();
    let options = CheckOptions::default().progress(move |entry| {
        seen_by_progress.lock().unwrap().push(entry.clone());
    });
    let report = client.check_with(&options).await;
    let seen = seen.lock().unwrap();
    assert_eq!(seen.as_slice(), report.entries());
    let names: Vec<&str> = seen.iter().map(|entry| entry.name.as_str()).collect();
    assert_eq!(names, CHECKS);
}
