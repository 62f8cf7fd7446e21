//! The official MCP conformance suite's server mode (`conformance server --url`), side by
//! side with `McpClient::check` on the same servers: every fault the suite finds with a
//! scenario that needs no fixture (no `test_*` tool, no `test://` resource), our checks find
//! too; and our servers pass both.

mod conformance_suite;

use std::process::Command;

use futures::{StreamExt as _, stream};

use mcp_assured::{McpAssured, fixture::ServerCommand, report::Report};
use mcp_assured_tests::{Transport, faults::Fault, peers, server, workspace_binary};

use conformance_suite::{Suite, TIMEOUT, without_colors};

/// The suite's server scenarios that hold for any server (the rest need its fixtures).
const GENERIC: [&str; 5] = [
    "server-initialize",
    "ping",
    "tools-list",
    "server-sse-multiple-streams",
    "dns-rebinding-protection",
];

/// Generic scenarios that hold only for a server declaring the capability: the suite
/// calls the method whatever the server declares.
const GENERIC_IF_DECLARED: [(&str, &str); 3] = [
    ("logging-set-level", "logging"),
    ("resources-list", "resources"),
    ("prompts-list", "prompts"),
];

const FAULT_SERVER: &str = env!("CARGO_BIN_EXE_fault-server");

/// The generic scenarios the suite fails on the server at `url`, with its output.
async fn suite_failures(url: &str, declared: &serde_json::Value) -> Vec<(String, String)> {
    let url = url.to_owned();
    let declared = declared.clone();
    tokio::task::spawn_blocking(move || {
        let node = peers::node22();
        let suite = peers::conformance_suite();
        let scenarios = GENERIC.into_iter().chain(
            GENERIC_IF_DECLARED
                .into_iter()
                .filter(|(_, capability)| declared.get(capability).is_some())
                .map(|(scenario, _)| scenario),
        );
        // One at a time: scenarios run at once would meet in the server.
        let mut failures = Vec::new();
        for scenario in scenarios {
            let run = Suite::start(Command::new(&node).arg(&suite).args([
                "server",
                "--url",
                &url,
                "--scenario",
                scenario,
            ]));
            let (status, output) = run.finish(TIMEOUT);
            if !status.is_some_and(|status| status.success()) {
                failures.push((scenario.to_owned(), without_colors(&output)));
            }
        }
        failures
    })
    .await
    .unwrap()
}

/// Our checks of the server at `url`, or why no client could connect (which finds a
/// fault too); and what the server declares.
async fn our_checks(url: &str) -> (Result<Report, String>, serde_json::Value) {
    match McpAssured::client().base_uri(url).build().await {
        Ok(client) => {
            let report = client.check().await;
            let declared = client.server_capabilities().clone();
            (Ok(report), declared)
        }
        Err(error) => (Err(error.to_string()), serde_json::json!({})),
    }
}

/// The checks of ours that cover `scenario`: one of them must fail where the suite fails
/// it. Every generic scenario has some; a failure of any other check is no agreement.
fn ours_for(scenario: &str) -> &'static [&'static str] {
    match scenario {
        "server-initialize" => &["initialize"],
        "ping" => &["ping"],
        "tools-list" => &[
            "capabilities.tools",
            "pagination.tools",
            "tools.names",
            "tools.input_schemas",
        ],
        "dns-rebinding-protection" => &["http.host_validation", "http.origin_validation"],
        "server-sse-multiple-streams" => &["http.concurrent_streams"],
        "logging-set-level" => &["capabilities.logging"],
        "resources-list" => &["capabilities.resources"],
        "prompts-list" => &["capabilities.prompts"],
        other => panic!("no check of ours is named for the suite's scenario `{other}`"),
    }
}

/// What the suite failed on one server, and whether ours could connect to see it.
struct Verdicts {
    /// The scenarios the suite failed.
    failed: Vec<String>,
    /// Why no client of ours could connect, if none could: then no check ran, and what the
    /// suite found is not found by a check of ours (the README's table says so).
    unreached: Option<String>,
}

/// Asserts that every generic scenario the suite fails on the server at `suite_url`, the
/// check of ours that covers it fails too on the same server at `our_url`; returns what the
/// suite failed, and whether ours connected. Two processes of one server, for faults that
/// change the process for good.
async fn ours_find_what_the_suite_finds(what: &str, our_url: &str, suite_url: &str) -> Verdicts {
    let (ours, declared) = our_checks(our_url).await;
    let failures = suite_failures(suite_url, &declared).await;
    let report = match ours {
        Ok(report) => report,
        Err(why) => {
            return Verdicts {
                failed: failures.into_iter().map(|(scenario, _)| scenario).collect(),
                unreached: Some(why),
            };
        }
    };
    for (scenario, output) in &failures {
        let covering = ours_for(scenario);
        let found = covering.iter().any(|name| {
            report
                .entry(name)
                .is_some_and(|entry| entry.status == mcp_assured::report::Status::Failed)
        });
        assert!(
            found,
            "{what}: the suite fails `{scenario}`, and none of {covering:?} fails.\n\
             ours:\n{report}\nthe suite:\n{output}"
        );
    }
    Verdicts {
        failed: failures.into_iter().map(|(scenario, _)| scenario).collect(),
        unreached: None,
    }
}

async fn fault_server(fault: Fault) -> mcp_assured::fixture::ServerProcess {
    server::start(
        &ServerCommand::new(FAULT_SERVER)
            .args(["--transport", "http", "--port", "{port}"])
            .args(["--fault", fault.name()]),
        "/mcp",
    )
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_generic_fault_the_suite_finds_in_the_fault_server_ours_finds() {
    // The faults of stdio and of the handshake are not the HTTP server's; a standalone
    // stream that opens late is a client's matter (ours waits for it, the suite's may not).
    let faults = Fault::ALL.into_iter().filter(|(_, fault)| {
        !matches!(
            fault,
            Fault::ExitAtStart
                | Fault::CrashOnInitialize
                | Fault::HangOnInitialize
                | Fault::SlowStart
                | Fault::NotFound
                | Fault::StreamOpensLate
        )
    });
    // Two faults at a time, each in processes of its own: a scenario run is mostly the
    // suite's Node.js starting, on one core.
    let judged: Vec<(&str, Verdicts)> = stream::iter(faults)
        .map(|(name, fault)| async move {
            // Two processes: a fault such as `expire-session` changes its process for good.
            let ours = fault_server(fault).await;
            let suites = fault_server(fault).await;
            let verdicts =
                ours_find_what_the_suite_finds(name, ours.url().unwrap(), suites.url().unwrap())
                    .await;
            (name, verdicts)
        })
        .buffered(2)
        .collect()
        .await;
    let mut found_by_the_suite = Vec::new();
    let mut unreached = Vec::new();
    for (name, verdicts) in judged {
        if let Some(why) = verdicts.unreached {
            unreached.push((name, why));
        } else if !verdicts.failed.is_empty() {
            found_by_the_suite.push((name, verdicts.failed));
        }
    }
    // No client of ours connects to a server that answers every request with 401 or 403
    // (without the credentials it asks for) or with 500 or HTML (`mcp-assured check` exits 3,
    // unreachable, naming the status): no check runs, so no check of ours agrees with what
    // the suite finds there. Only those.
    let unreached_names: Vec<&str> = unreached.iter().map(|(name, _)| *name).collect();
    assert_eq!(
        unreached_names,
        [
            "unauthorized",
            "unauthorized-bare",
            "forbidden",
            "internal-error",
            "non-json"
        ],
        "{unreached:#?}"
    );
    // What the suite 0.1.16 finds: the rest of the faults only our checks see
    // (tests/tests/faults/transport_checks.rs).
    let names: Vec<&str> = found_by_the_suite.iter().map(|(name, _)| *name).collect();
    assert!(
        names.contains(&"one-stream-at-a-time"),
        "{found_by_the_suite:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn server_everythings_dns_rebinding_is_found_by_both() {
    let server = server::everything(Transport::StreamableHttp).await;
    let url = server.url().unwrap();
    let verdicts = ours_find_what_the_suite_finds("server-everything", url, url).await;
    assert_eq!(verdicts.unreached, None);
    assert_eq!(verdicts.failed, ["dns-rebinding-protection"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_python_sdks_server_passes_the_suites_generic_scenarios() {
    let server = server::python(Transport::StreamableHttp).await;
    let url = server.url().unwrap();
    let verdicts = ours_find_what_the_suite_finds("the Python SDK", url, url).await;
    assert_eq!(verdicts.unreached, None);
    assert_eq!(verdicts.failed, Vec::<String>::new());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn our_servers_pass_the_suite_and_our_checks() {
    let example = workspace_binary("mcp-assured-examples", "example-server");
    let weather = workspace_binary("weather-server", "weather-server");
    let companion = workspace_binary("mcp-assured-cli", "mcp-assured");
    let servers = [
        ServerCommand::new(example).args(["--transport", "streamable-http", "--port", "{port}"]),
        ServerCommand::new(weather).args(["--api-url", "http://127.0.0.1:9", "--port", "{port}"]),
        ServerCommand::new(companion).args(["serve", "--transport", "http", "--port", "{port}"]),
    ];
    for command in servers {
        let server = server::start(&command, "/mcp").await;
        let url = server.url().unwrap();
        let (ours, declared) = our_checks(url).await;
        let report = ours.unwrap();
        assert_eq!(report.failed(), 0, "{command}: {report}");
        let failures = suite_failures(url, &declared).await;
        assert!(failures.is_empty(), "{command}: {failures:#?}");
    }
}
