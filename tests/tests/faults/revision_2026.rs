//! The checks of what protocol 2026-07-28 asks of a server, each failing on a server that
//! breaks exactly it (the fault server's 2026 faults, over stdio), and passing on servers that
//! keep it: the fault server itself, the example server over HTTP, the Python SDK's 2026 peer.

use mcp_assured::{McpAssured, McpClient, report::Status};

use mcp_assured_tests::{faults::Fault, peers};

use crate::support::{http_server, stdio};

use mcp_assured::checks::REVISION_2026_CHECKS as REVISION_CHECKS;

async fn on_2026(fault: Fault) -> McpClient {
    let client = stdio(fault, fault.name())
        .newest_protocol()
        .build()
        .await
        .unwrap();
    assert_eq!(client.protocol_version(), "2026-07-28");
    client
}

/// A client negotiating the newest revision with the server at `url`.
async fn newest_at(url: &str) -> McpClient {
    McpAssured::client()
        .base_uri(url)
        .newest_protocol()
        .build()
        .await
        .unwrap()
}

/// Runs the checks; asserts `failing` failed with a message containing `says`, and every
/// other 2026 check passed or (not over HTTP) was skipped.
async fn only_this_fails(client: &McpClient, failing: Option<(&str, &str)>) {
    let report = client.check().await;
    for name in REVISION_CHECKS {
        let entry = report
            .entry(name)
            .unwrap_or_else(|| panic!("no {name} in {report}"));
        match failing {
            Some((failed, says)) if failed == name => {
                assert_eq!(entry.status, Status::Failed, "{report}");
                assert!(entry.message.contains(says), "{}", entry.message);
            }
            _ if name == "http.standard_headers" && !client.target().starts_with("http") => {
                assert_eq!(entry.status, Status::Skipped, "{report}");
            }
            // A warning when `logging` is declared, which the fault server does.
            _ if name == "capabilities.deprecated"
                && client.server_capabilities().get("logging").is_some() =>
            {
                assert_eq!(entry.status, Status::Warned, "{report}");
            }
            _ => assert_eq!(entry.status, Status::Passed, "{name}: {report}"),
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_that_keeps_the_revision_passes() {
    let client = on_2026(Fault::None).await;
    only_this_fails(&client, None).await;
}

/// The fault server with `fault`, over stdio on 2026-07-28: only `check` fails, saying `says`.
async fn only_fails(fault: Fault, check: &str, says: &str) {
    let client = on_2026(fault).await;
    only_this_fails(&client, Some((check, says))).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_discover_result_without_versions_fails() {
    only_fails(
        Fault::DiscoverWithoutVersions,
        "discover.result",
        "it has no `supportedVersions` array",
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_of_any_version_fails() {
    only_fails(
        Fault::AnyVersion,
        "discover.unsupported_version",
        "expected error -32022 (unsupported protocol version)",
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_that_needs_no_metadata_fails() {
    only_fails(
        Fault::MetadataOptional,
        "requests.missing_metadata",
        "expected error -32602 (invalid params) for a `tools/list` without the `_meta`",
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_python_sdks_2026_peer_passes_over_stdio_and_http() {
    let client = McpAssured::client()
        .command(peers::python())
        .arg(peers::python_2026_server_script())
        .newest_protocol()
        .build()
        .await
        .unwrap();
    only_this_fails(&client, None).await;
    let server = mcp_assured_tests::server::start(
        &mcp_assured::fixture::ServerCommand::new(peers::python())
            .arg(peers::python_2026_server_script())
            .args(["--transport", "streamable-http", "--port", "{port}"]),
        "/mcp",
    )
    .await;
    only_this_fails(&newest_at(server.url().unwrap()).await, None).await;
}

/// On an older revision they do not apply.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn on_2025_11_25_they_are_skipped() {
    let client = stdio(Fault::None, "revision-2025").build().await.unwrap();
    let report = client.check().await;
    for name in REVISION_CHECKS {
        let entry = report.entry(name).unwrap();
        assert_eq!(entry.status, Status::Skipped, "{report}");
        assert!(
            entry.message.contains("not 2026-07-28"),
            "{}",
            entry.message
        );
    }
}

/// Over streamable HTTP: the header check too.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_that_ignores_the_method_header_fails() {
    for (fault, failing) in [
        (Fault::None, None),
        (
            Fault::MethodHeaderIgnored,
            Some((
                "http.standard_headers",
                "expected HTTP 400 with error -32020 (header mismatch) for a `tools/list` \
                 without `Mcp-Method`: HTTP 200",
            )),
        ),
    ] {
        let server = http_server(fault, fault.name()).await;
        let client = newest_at(server.url().unwrap()).await;
        assert_eq!(client.protocol_version(), "2026-07-28");
        only_this_fails(&client, failing).await;
        let deprecated = client.check().await;
        let deprecated = deprecated.entry("capabilities.deprecated").unwrap();
        assert_eq!(deprecated.status, Status::Warned);
        assert!(
            deprecated.message.starts_with("`logging` is deprecated"),
            "the fault server declares logging: {}",
            deprecated.message
        );
    }
}

/// A server whose `server/discover` names only revisions of the handshake: negotiating the
/// newest means `initialize`, not a failure.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_discover_of_legacy_versions_only_falls_back_to_initialize() {
    let client = stdio(Fault::DiscoverLegacyOnly, "discover-legacy-only")
        .newest_protocol()
        .build()
        .await
        .unwrap();
    assert_eq!(client.protocol_version(), "2025-11-25");
    assert!(client.discovery().is_none());
    client.list_tools().await.unwrap();
    // A pin of 2026-07-28 is refused, naming what the server offers.
    refuses_a_2026_pin_naming_2025_11_25(Fault::DiscoverLegacyOnly).await;
}

/// A pin of 2026-07-28 fails against the fault server of `fault`, naming the revision it
/// speaks.
async fn refuses_a_2026_pin_naming_2025_11_25(fault: Fault) {
    let tag = format!("{}-pinned", fault.name());
    let error = stdio(fault, &tag)
        .protocol_version("2026-07-28")
        .build()
        .await
        .unwrap_err()
        .to_string();
    assert!(error.contains("2025-11-25"), "{error}");
}

/// A notification the server sends before answering the probe is not recorded (the probe
/// reads past it), and does not lend its text to the next notification of its kind.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_notification_before_the_probes_answer_is_not_paired_with_a_later_one() {
    let client = stdio(Fault::NoisyProbe, "noisy-probe")
        .newest_protocol()
        .build()
        .await
        .unwrap();
    client
        .call_tool("flood", serde_json::json!({"count": 2}))
        .await
        .unwrap();
    let data: Vec<serde_json::Value> = client
        .notifications()
        .into_iter()
        .filter(|n| n.method == "notifications/message")
        .map(|n| n.params["data"].clone())
        .collect();
    assert_eq!(
        data,
        [
            serde_json::json!({"flood": 0}),
            serde_json::json!({"flood": 1})
        ]
    );
}

/// The defaults of a client that negotiates: how a user's `McpAssured::client()` starts.
fn with_the_defaults(fault: Fault, tag: &str) -> mcp_assured::ClientBuilder {
    stdio(fault, tag).newest_protocol()
}

/// An older server that answers `server/discover` (and every method it lacks) with `{}` is
/// a broken server to test, not one to refuse: `initialize` follows on the same connection,
/// and the checks report the bad answer.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_answering_anything_is_reached_and_its_checks_say_what_it_does_wrong() {
    let client = with_the_defaults(Fault::AnswersAnything, "answers-anything")
        .build()
        .await
        .unwrap();
    assert_eq!(client.protocol_version(), "2025-11-25");
    assert!(client.discovery().is_none());
    let report = client.check().await;
    let unknown_method = report.entry("errors.unknown_method").unwrap();
    assert_eq!(unknown_method.status, Status::Failed, "{report}");
    assert!(
        unknown_method.message.contains("answered with a result"),
        "{report}"
    );
    // A pin of 2026-07-28 is still refused, naming what it does speak.
    refuses_a_2026_pin_naming_2025_11_25(Fault::AnswersAnything).await;
}

/// A server that is up (it answers a `ping`) but drops the probe gets `initialize` once
/// `discover_timeout` has passed, not half the start-up timeout.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_dropping_the_probe_gets_initialize_after_the_discover_timeout() {
    let started = std::time::Instant::now();
    let client = with_the_defaults(Fault::DropsUnknown, "drops-unknown")
        .discover_timeout(std::time::Duration::from_millis(500))
        .build()
        .await
        .unwrap();
    assert_eq!(client.protocol_version(), "2025-11-25");
    let took = started.elapsed();
    assert!(
        took < std::time::Duration::from_secs(5),
        "took {took:?}: the start-up timeout's half is 30 s"
    );
    client.list_tools().await.unwrap();
}

/// A server that answers nothing before `initialize` (neither the probe nor a `ping`) gets
/// `initialize` within the start-up timeout, from a process started again: never on the
/// connection where it may still answer the probe.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_silent_until_initialize_is_started_again_for_it() {
    let startup = std::time::Duration::from_secs(8);
    let started = std::time::Instant::now();
    let client = with_the_defaults(Fault::SilentUntilInitialize, "silent-until-initialize")
        .startup_timeout(startup)
        .build()
        .await
        .unwrap();
    let took = started.elapsed();
    assert!(took >= startup / 2 && took < startup, "took {took:?}");
    assert_eq!(client.protocol_version(), "2025-11-25");
    client.list_tools().await.unwrap();
    client.close().await.unwrap();
}
