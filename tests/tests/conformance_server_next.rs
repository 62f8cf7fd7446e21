//! The official conformance suite's newest server mode (0.2.0-alpha.12) and `McpClient::check`
//! on the same servers, grade by grade, on both wires (2025-11-25, stateful; 2026-07-28,
//! stateless): every FAILURE of the suite is a FAIL of the check of ours that covers it, and
//! every WARNING at least a WARN of it. A failure of another check of ours is no agreement.
//!
//! Counted: the scenarios that need no fixture of the suite's own (no `test_*` tool or
//! prompt, no `test://` resource), and of those the checks that need none (the suite reports
//! a missing diagnostic tool as a "Not testable" FAILURE). What the suite checks and no check
//! of ours sees is [`NOT_SEEN`], each with why; the README's table lists them.

mod conformance_suite;

use std::path::{Path, PathBuf};
use std::process::Command;

use futures::{StreamExt as _, stream};

use mcp_assured::{
    McpAssured,
    fixture::{ServerCommand, ServerProcess},
    report::{Report, Status},
};
use mcp_assured_tests::{Transport, faults::Fault, peers, server, workspace_binary};
use serde_json::Value;

use conformance_suite::{Suite, TIMEOUT, without_colors};

/// A wire of the suite: the revision it speaks, and the scenarios that hold for any server
/// on it, and those that hold for a server declaring these capabilities.
struct Wire {
    revision: &'static str,
    any: &'static [&'static str],
    if_declared: &'static [(&'static str, &'static [&'static str])],
}

const WIRES: [Wire; 2] = [
    Wire {
        revision: "2025-11-25",
        any: &[
            "server-initialize",
            "ping",
            "tools-list",
            "server-sse-multiple-streams",
            "dns-rebinding-protection",
            "server-session-lifecycle",
        ],
        if_declared: &[
            ("logging-set-level", &["logging"]),
            ("resources-list", &["resources"]),
            ("prompts-list", &["prompts"]),
        ],
    },
    Wire {
        revision: "2026-07-28",
        any: &[
            "server-stateless",
            "tools-list",
            "dns-rebinding-protection",
            "server-sse-multiple-streams",
            "input-required-result-unsupported-methods",
        ],
        if_declared: &[
            ("resources-list", &["resources"]),
            ("prompts-list", &["prompts"]),
            ("sep-2164-resource-not-found", &["resources"]),
            ("caching", &["tools", "prompts", "resources"]),
        ],
    },
];

/// The suite's checks that need a diagnostic tool of its own fixture server
/// (`test_missing_capability`, `test_streaming_elicitation`, `test_logging_tool`,
/// `test_trigger_*_change`): not counted.
const FIXTURE_CHECKS: [&str; 4] = [
    "sep-2575-server-rejects-undeclared-capability",
    "sep-2575-missing-capability-http-400",
    "sep-2575-http-server-no-independent-requests-on-stream",
    "sep-2575-server-no-log-without-loglevel",
];

/// The checks of ours that cover a check of the suite.
fn ours_for(check: &str) -> Option<&'static [&'static str]> {
    Some(match check {
        "server-initialize" | "sep-2575-server-identifies-in-result-meta" => &["initialize"],
        "ping" => &["ping"],
        "tools-list" => &["capabilities.tools", "tools.input_schemas"],
        "tools-name-format" => &["tools.names"],
        "localhost-host-rebinding-rejected" => &["http.host_validation", "http.origin_validation"],
        "localhost-host-valid-accepted" => &["http.host_validation"],
        "server-accepts-multiple-post-streams" | "server-sse-multiple-streams" => {
            &["http.concurrent_streams"]
        }
        "logging-set-level" => &["capabilities.logging"],
        "resources-list" => &["capabilities.resources"],
        "prompts-list" | "sep-2575-server-declares-prompts-in-discover" => {
            &["capabilities.prompts"]
        }
        "sep-2575-discover-capabilities-match-handlers" => &["capabilities.tools"],
        "server-session-delete-accepted" | "server-session-terminated-returns-404" => {
            &["http.session_delete"]
        }
        "server-session-initialized-accepted" => &["http.accepted_with_202"],
        "sep-2575-request-meta-invalid-missing-meta"
        | "sep-2575-request-meta-invalid-missing-protocol-version"
        | "sep-2575-request-meta-invalid-missing-client-capabilities"
        | "sep-2575-http-server-meta-invalid-400" => &["requests.missing_metadata"],
        "sep-2575-server-implements-discover" => &["discover.result"],
        "sep-2575-server-unsupported-version-error"
        | "sep-2575-http-server-unsupported-version-400" => &["discover.unsupported_version"],
        "sep-2575-http-server-header-mismatch-400" => &["http.standard_headers"],
        "sep-2575-http-server-method-not-found-404"
        | "sep-2575-http-server-method-not-found-404-initialize"
        | "sep-2575-http-server-method-not-found-404-ping"
        | "sep-2575-http-server-method-not-found-404-logging-setlevel"
        | "sep-2575-http-server-method-not-found-404-resources-subscribe"
        | "sep-2575-http-server-method-not-found-404-resources-unsubscribe" => {
            &["errors.unknown_method"]
        }
        "sep-2164-error-code" | "sep-2164-data-uri" => &["errors.unknown_resource"],
        "wire-schema-valid" => &["wire.schema"],
        _ => return None,
    })
}

/// What the suite checks and no check of ours sees, with why.
const NOT_SEEN: [(&str, &str); 14] = [
    (
        "server-session-id-visible-ascii",
        "the characters of a session id",
    ),
    (
        "server-session-lifecycle-error",
        "a raw initialize without MCP-Protocol-Version",
    ),
    (
        "tools-list-deterministic-order",
        "the order of tools over three listings",
    ),
    (
        "sep-2575-request-meta-client-info-optional",
        "a request without clientInfo served",
    ),
    (
        "sep-2575-http-server-error-jsonrpc-id",
        "the id of each error response",
    ),
    (
        "sep-2575-server-sends-subscription-ack",
        "subscriptions/listen",
    ),
    (
        "sep-2575-server-tags-subscription-id",
        "subscriptions/listen",
    ),
    (
        "sep-2575-server-honors-notification-filter",
        "subscriptions/listen",
    ),
    (
        "sep-2575-server-sends-tools-list-changed-on-subscription",
        "subscriptions/listen",
    ),
    (
        "sep-2575-server-sends-prompts-list-changed-on-subscription",
        "subscriptions/listen",
    ),
    (
        "sep-2322-not-on-unsupported-requests",
        "input_required on listings",
    ),
    (
        "sep-2549-tools-list-caching-hints",
        "caching hints (ttlMs, cacheScope)",
    ),
    (
        "sep-2549-ttl-non-negative",
        "caching hints (ttlMs, cacheScope)",
    ),
    (
        "sep-2549-cache-scope-valid",
        "caching hints (ttlMs, cacheScope)",
    ),
];

/// A check of the suite that found something: its id, FAILURE or WARNING, and what it said.
#[derive(Debug)]
struct Finding {
    scenario: String,
    id: String,
    status: String,
    said: String,
}

/// The suite's findings on the server at `url` on `wire`, in the scenarios that apply to a
/// server declaring `declared`.
fn suite_findings(url: &str, wire: &Wire, declared: &Value) -> Vec<Finding> {
    let node = peers::node22_next();
    let suite = peers::conformance_suite_next();
    let scenarios = wire.any.iter().copied().chain(
        wire.if_declared
            .iter()
            .filter(|(_, needs)| needs.iter().all(|need| declared.get(need).is_some()))
            .map(|(scenario, _)| *scenario),
    );
    let mut findings = Vec::new();
    // One at a time: scenarios run at once would meet in the server.
    for scenario in scenarios {
        let out = output_dir(scenario, wire.revision);
        let run = Suite::start(Command::new(&node).arg(&suite).args([
            "server",
            "--url",
            url,
            "--scenario",
            scenario,
            "--spec-version",
            wire.revision,
            "-o",
            out.to_str().unwrap(),
        ]));
        let (_, output) = run.finish(TIMEOUT);
        let checks = read_checks(&out).unwrap_or_else(|| {
            panic!(
                "the suite wrote no checks for `{scenario}` at {}:\n{}",
                wire.revision,
                without_colors(&output)
            )
        });
        let _ = std::fs::remove_dir_all(&out);
        for check in checks {
            let status = check["status"].as_str().unwrap_or_default();
            let id = check["id"].as_str().unwrap_or_default();
            if matches!(status, "FAILURE" | "WARNING") && !FIXTURE_CHECKS.contains(&id) {
                findings.push(Finding {
                    scenario: scenario.to_owned(),
                    id: id.to_owned(),
                    status: status.to_owned(),
                    said: check["errorMessage"]
                        .as_str()
                        .or(check["description"].as_str())
                        .unwrap_or_default()
                        .to_owned(),
                });
            }
        }
    }
    findings
}

/// A fresh directory for one run's `checks.json`.
fn output_dir(scenario: &str, revision: &str) -> PathBuf {
    static RUN: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = RUN.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    std::env::temp_dir().join(format!(
        "mcp-assured-conformance-{}-{n}-{scenario}-{revision}",
        std::process::id()
    ))
}

/// The checks of the one scenario run into `dir` (`server-<scenario>-<time>/checks.json`).
fn read_checks(dir: &Path) -> Option<Vec<Value>> {
    let run = std::fs::read_dir(dir).ok()?.flatten().next()?.path();
    let text = std::fs::read_to_string(run.join("checks.json")).ok()?;
    serde_json::from_str(&text).ok()
}

/// Our checks of the server at `url` on `revision`, and what it declares; `Err` when it
/// does not speak the revision.
async fn our_checks(url: &str, revision: &str) -> Result<(Report, Value), String> {
    let client = McpAssured::client()
        .base_uri(url)
        .protocol_version(revision)
        .build()
        .await
        .map_err(|error| error.to_string())?;
    let report = client.check().await;
    let declared = client.server_capabilities().clone();
    client.close().await.unwrap();
    Ok((report, declared))
}

/// What the suite found on one server, as the comparison sorted it.
#[derive(Debug, Default)]
struct Compared {
    /// The suite's findings a check of ours agrees with, as `revision id`.
    agreed: Vec<String>,
    /// The ids of what the suite found that ours does not see.
    unseen: Vec<String>,
    /// The wires the server does not speak.
    unspoken: Vec<&'static str>,
}

/// Asserts that ours and the suite agree grade by grade on the server at `url`, on both
/// wires.
async fn agree(what: &str, url: &str) -> Compared {
    let mut compared = Compared::default();
    let Compared {
        agreed: found,
        unseen,
        unspoken,
    } = &mut compared;
    for wire in &WIRES {
        let (report, declared) = match our_checks(url, wire.revision).await {
            Ok(checked) => checked,
            Err(why) => {
                // It does not speak this revision: the suite fails it there too.
                assert!(why.contains("does not speak protocol"), "{what}: {why}");
                let findings = run_suite(url, wire, &Value::Object(Default::default())).await;
                assert!(
                    findings.iter().any(|f| f.status == "FAILURE"),
                    "{what} speaks no {} for us, but the suite found nothing: {why}",
                    wire.revision
                );
                unspoken.push(wire.revision);
                continue;
            }
        };
        for finding in run_suite(url, wire, &declared).await {
            let Some(covering) = ours_for(&finding.id) else {
                unseen.push(finding.id);
                continue;
            };
            let agreed = covering.iter().any(|name| {
                report
                    .entry(name)
                    .is_some_and(|entry| match finding.status.as_str() {
                        "FAILURE" => entry.status == Status::Failed,
                        _ => matches!(entry.status, Status::Failed | Status::Warned),
                    })
            });
            assert!(
                agreed,
                "{what} at {}: the suite's `{}` ({}) in `{}` said {:?}; none of {covering:?} \
                 is at least as severe.\nours:\n{report}",
                wire.revision, finding.id, finding.status, finding.scenario, finding.said
            );
            found.push(format!("{} {}", wire.revision, finding.id));
        }
    }
    unseen.sort();
    unseen.dedup();
    for id in unseen.iter() {
        assert!(
            NOT_SEEN.iter().any(|(known, _)| known == id),
            "{what}: the suite's `{id}` is neither covered by a check of ours nor in NOT_SEEN"
        );
    }
    compared
}

async fn run_suite(url: &str, wire: &'static Wire, declared: &Value) -> Vec<Finding> {
    let url = url.to_owned();
    let declared = declared.clone();
    tokio::task::spawn_blocking(move || suite_findings(&url, wire, &declared))
        .await
        .unwrap()
}

async fn http(command: ServerCommand) -> ServerProcess {
    server::start(&command, "/mcp").await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_weather_server_and_the_companion_are_judged_alike() {
    let weather = workspace_binary("weather-server", "weather-server");
    let companion = workspace_binary("mcp-assured-cli", "mcp-assured");
    for command in [
        ServerCommand::new(weather).args(["--api-url", "http://127.0.0.1:9", "--port", "{port}"]),
        ServerCommand::new(companion).args(["serve", "--transport", "http", "--port", "{port}"]),
    ] {
        let what = command.to_string();
        let server = http(command).await;
        let compared = agree(&what, server.url().unwrap()).await;
        assert_eq!(compared.unspoken, Vec::<&str>::new(), "{what}");
        assert_eq!(
            compared.agreed,
            Vec::<String>::new(),
            "{what}: {compared:?}"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn our_example_server_is_judged_alike() {
    let example = workspace_binary("mcp-assured-examples", "example-server");
    let server = http(ServerCommand::new(example).args([
        "--transport",
        "streamable-http",
        "--port",
        "{port}",
    ]))
    .await;
    let compared = agree("the example server", server.url().unwrap()).await;
    assert_eq!(compared.unspoken, Vec::<&str>::new());
    // rmcp's server declares `listChanged` but has no `subscriptions/listen` (SEP-2575): the
    // suite finds it, and no check of ours looks there.
    assert!(
        compared
            .unseen
            .contains(&"sep-2575-server-sends-subscription-ack".to_owned()),
        "{compared:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_python_sdks_server_is_judged_alike() {
    let server = server::python(Transport::StreamableHttp).await;
    let compared = agree("the Python SDK", server.url().unwrap()).await;
    assert_eq!(compared.unspoken, Vec::<&str>::new());
    assert_eq!(compared.agreed, Vec::<String>::new(), "{compared:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn server_everything_is_judged_alike_and_speaks_no_2026_07_28() {
    let server = server::everything(Transport::StreamableHttp).await;
    let compared = agree("server-everything", server.url().unwrap()).await;
    assert_eq!(compared.unspoken, ["2026-07-28"]);
    // DNS rebinding, and a deleted session's id served with 400, not 404.
    assert_eq!(
        compared.agreed,
        [
            "2025-11-25 localhost-host-rebinding-rejected",
            "2025-11-25 server-session-terminated-returns-404"
        ],
        "{compared:?}"
    );
}

/// The fault server's faults of the HTTP transport that leave it reachable: each process
/// breaks one thing, which both the suite (where it looks) and ours must judge alike.
const HTTP_FAULTS: [Fault; 13] = [
    Fault::None,
    Fault::AnyHost,
    Fault::AnyOrigin,
    Fault::SessionOptional,
    Fault::UnknownSessionServed,
    Fault::DeleteIgnored,
    Fault::AnyProtocolHeader,
    Fault::NotificationAnswered,
    Fault::IgnoresAccept,
    Fault::GetNotSse,
    Fault::ResumeRefused,
    Fault::OneStreamAtATime,
    Fault::MethodHeaderIgnored,
];

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_fault_of_the_fault_servers_http_is_judged_alike() {
    let fault_server = env!("CARGO_BIN_EXE_fault-server");
    // Two faults at a time, each in a process of its own: a scenario run is mostly the
    // suite's Node.js starting, on one core.
    let judged: Vec<(Fault, Compared)> = stream::iter(HTTP_FAULTS)
        .map(|fault| async move {
            let server = http(
                ServerCommand::new(fault_server)
                    .args(["--transport", "http", "--port", "{port}"])
                    .args(["--fault", fault.name()]),
            )
            .await;
            (fault, agree(fault.name(), server.url().unwrap()).await)
        })
        .buffered(2)
        .collect()
        .await;
    let mut found = Vec::new();
    for (fault, compared) in judged {
        assert_eq!(compared.unspoken, Vec::<&str>::new(), "{fault}");
        if !compared.agreed.is_empty() {
            found.push((fault.name(), compared.agreed));
        }
    }
    eprintln!("found by both: {found:?}");
    let faults: Vec<&str> = found.iter().map(|(fault, _)| *fault).collect();
    assert_eq!(
        faults,
        ["delete-ignored", "one-stream-at-a-time"],
        "{found:?}"
    );
}
