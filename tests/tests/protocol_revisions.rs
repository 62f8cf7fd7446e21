//! Which protocol revision a connection speaks (issue 18's lifecycle): negotiated with
//! `server/discover` against servers that speak 2026-07-28 (the Python SDK 2.3 over stdio
//! and streamable HTTP, the rmcp example server in process), falling back to `initialize`
//! at once against one that does not (server-everything), and a pin honoured or refused
//! with what the server offered, never silently downgraded.

use std::time::{Duration, Instant};

use mcp_assured::{ClientBuilder, Error, McpAssured, Subscriptions};
use mcp_assured_examples::ExampleServer;
use mcp_assured_tests::{Transport, peers, server};
use serde_json::json;

const MODERN: &str = "2026-07-28";

fn python_stdio() -> ClientBuilder {
    McpAssured::client()
        .command(peers::python())
        .arg(peers::python_server_script())
}

fn everything_stdio() -> ClientBuilder {
    McpAssured::client()
        .command(peers::node())
        .arg(peers::server_everything())
        .arg("stdio")
}

#[tokio::test]
async fn newest_is_2026_07_28_with_the_python_sdk_over_stdio_and_http() {
    let http = server::python(Transport::StreamableHttp).await;
    for builder in [
        python_stdio(),
        McpAssured::client().base_uri(http.url().unwrap()),
    ] {
        let client = builder.newest_protocol().build().await.unwrap();
        assert_eq!(client.protocol_version(), MODERN);
        let discovery = client.discovery().expect("a server/discover answer");
        assert!(
            discovery
                .supported_versions
                .iter()
                .any(|version| version.as_str() == MODERN),
            "{discovery:?}"
        );
        // Every request carries the per-request metadata the server requires.
        let tools = client.list_tools().await.unwrap();
        assert!(tools.iter().any(|tool| tool.name == "echo"), "{tools:?}");
        let echoed = client
            .call_tool("echo", json!({"message": "on 2026-07-28"}))
            .await
            .unwrap();
        assert_eq!(echoed.text(), "on 2026-07-28");
        client.close().await.unwrap();
    }
}

#[tokio::test]
async fn newest_is_2026_07_28_with_an_rmcp_server_in_process() {
    let client = McpAssured::client()
        .service(ExampleServer::new())
        .newest_protocol()
        .build()
        .await
        .unwrap();
    assert_eq!(client.protocol_version(), MODERN);
    let sum = client
        .call_tool("add", json!({"a": 2, "b": 3}))
        .await
        .unwrap();
    assert_eq!(sum.structured_content, Some(json!({"sum": 5})));
}

#[tokio::test]
async fn newest_falls_back_to_initialize_at_once_for_an_older_server() {
    let http = server::everything(Transport::StreamableHttp).await;
    for builder in [
        everything_stdio(),
        McpAssured::client().base_uri(http.url().unwrap()),
    ] {
        let started = Instant::now();
        let client = builder.newest_protocol().build().await.unwrap();
        assert_eq!(client.protocol_version(), "2025-11-25");
        assert!(client.discovery().is_none());
        // server-everything answers `server/discover` with an error at once: no wait.
        assert!(
            started.elapsed() < Duration::from_secs(3),
            "took {:?}",
            started.elapsed()
        );
        client.list_tools().await.unwrap();
        client.close().await.unwrap();
    }
}

#[tokio::test]
async fn a_2026_pin_is_refused_by_an_older_server_naming_what_it_offers() {
    let error = everything_stdio()
        .protocol_version(MODERN)
        .build()
        .await
        .unwrap_err();
    let Error::ProtocolVersion {
        requested, offered, ..
    } = &error
    else {
        panic!("{error:?}")
    };
    assert_eq!(requested, MODERN);
    assert_eq!(offered, &["2025-11-25"]);
    let message = error.to_string();
    assert!(
        message.contains("does not speak protocol 2026-07-28"),
        "{message}"
    );
    assert!(message.contains("server/discover"), "{message}");
    assert!(message.contains("It offers 2025-11-25"), "{message}");
}

#[tokio::test]
async fn pins_are_honoured_on_either_side_of_the_handshake() {
    let modern = python_stdio()
        .protocol_version(MODERN)
        .build()
        .await
        .unwrap();
    assert_eq!(modern.protocol_version(), MODERN);
    modern.close().await.unwrap();
    // The Python SDK echoes a handshake version it knows; no probe locks it into 2026-07-28.
    let older = python_stdio()
        .protocol_version("2025-06-18")
        .build()
        .await
        .unwrap();
    assert_eq!(older.protocol_version(), "2025-06-18");
    assert!(older.discovery().is_none());
    older.close().await.unwrap();
}

#[tokio::test]
async fn a_2026_pin_over_http_and_sse_is_a_misuse() {
    let error = McpAssured::client()
        .base_uri("http://127.0.0.1:1/sse")
        .protocol_version(MODERN)
        .build()
        .await
        .unwrap_err();
    assert!(matches!(error, Error::InvalidInput { .. }), "{error:?}");
    assert!(
        error
            .to_string()
            .contains("HTTP+SSE is a 2024-11-05 transport"),
        "{error}"
    );
}

#[tokio::test]
async fn a_short_discover_timeout_does_not_cut_the_wait_for_a_booting_server() {
    // Python boots for most of a second: longer than this `discover_timeout`, which is how
    // long a server that is up may leave the probe unanswered. The wait for the boot is the
    // start-up timeout's, so the probe is answered and the connection speaks 2026-07-28.
    let client = python_stdio()
        .newest_protocol()
        .discover_timeout(Duration::from_millis(200))
        .build()
        .await
        .unwrap();
    assert_eq!(client.protocol_version(), MODERN);
    client.ping().await.unwrap();
}

/// The Python SDK's 2026-07-28 peer (multi-round-trip tools), over stdio.
fn python_2026() -> ClientBuilder {
    McpAssured::client()
        .command(peers::python())
        .arg(peers::python_2026_server_script())
        .newest_protocol()
}

/// The same peer over streamable HTTP, until dropped.
async fn python_2026_http() -> mcp_assured::fixture::ServerProcess {
    server::start(
        &mcp_assured::fixture::ServerCommand::new(peers::python())
            .arg(peers::python_2026_server_script())
            .args(["--transport", "streamable-http", "--port", "{port}"]),
        "/mcp",
    )
    .await
}

#[tokio::test]
async fn an_input_required_answer_is_answered_and_the_call_sent_again() {
    // requestState alone: echoed exactly, and the call completes.
    let client = python_2026().build().await.unwrap();
    assert_eq!(client.protocol_version(), MODERN);
    let result = client.call_tool("two_step", json!({})).await.unwrap();
    assert_eq!(result.text(), "completed with state 'step-1'");
    client.close().await.unwrap();

    // An elicitation input request, answered by the handler the test configured, as it
    // would be on an older revision, and recorded among the server's requests.
    let client = python_2026()
        .on_elicitation(|_: &mcp_assured::model::ElicitRequestParams| {
            mcp_assured::model::ElicitResult::new(mcp_assured::model::ElicitationAction::Accept)
                .with_content(json!({"name": "Grace"}))
        })
        .build()
        .await
        .unwrap();
    let result = client.call_tool("ask_name", json!({})).await.unwrap();
    assert_eq!(result.text(), "hello Grace");
    let asked = client.server_requests();
    assert_eq!(asked.len(), 1, "{asked:?}");
    assert_eq!(asked[0].method, "elicitation/create");
    client.close().await.unwrap();

    let defaults = python_2026()
        .accept_elicitation_defaults()
        .build()
        .await
        .unwrap();
    let result = defaults.call_tool("ask_name", json!({})).await.unwrap();
    assert_eq!(result.text(), "hello Ada");
    defaults.close().await.unwrap();
}

#[tokio::test]
async fn an_input_request_without_a_configured_answer_says_what_to_configure() {
    let http = python_2026_http().await;
    let client = McpAssured::client()
        .base_uri(http.url().unwrap())
        .newest_protocol()
        .build()
        .await
        .unwrap();
    assert_eq!(client.protocol_version(), MODERN);
    // Over single-exchange HTTP too.
    let done = client.call_tool("two_step", json!({})).await.unwrap();
    assert_eq!(done.text(), "completed with state 'step-1'");
    let error = client.call_tool("ask_name", json!({})).await.unwrap_err();
    let message = error.to_string();
    assert!(message.contains("asked for input `name`"), "{message}");
    assert!(
        message.contains("`.accept_elicitation_defaults()`"),
        "{message}"
    );
}

#[tokio::test]
async fn subscriptions_listen_gets_the_notifications_asked_for() {
    let http = python_2026_http().await;
    for builder in [
        python_2026(),
        McpAssured::client()
            .base_uri(http.url().unwrap())
            .newest_protocol(),
    ] {
        let client = builder.build().await.unwrap();
        let mut changes = client
            .listen(Subscriptions::new().tools().resource("file:///counter"))
            .await
            .unwrap();
        let acknowledged = changes.acknowledged();
        assert_eq!(
            acknowledged["toolsListChanged"],
            json!(true),
            "{acknowledged}"
        );
        client.call_tool("bump", json!({})).await.unwrap();
        let mut methods = Vec::new();
        for _ in 0..2 {
            let notification = changes.next().await.unwrap().expect("a notification");
            methods.push(notification.method);
        }
        methods.sort();
        assert_eq!(
            methods,
            [
                "notifications/resources/updated",
                "notifications/tools/list_changed"
            ]
        );
        changes.cancel().await.unwrap();
        client.close().await.unwrap();
    }
}

/// The client's timeout bounds the whole exchange, every round together: a server that asks
/// again and again, slowly, gets a timeout, not ten rounds of the timeout each.
#[tokio::test]
async fn the_timeout_bounds_every_round_together() {
    let client = python_2026()
        .timeout(Duration::from_millis(1500))
        .build()
        .await
        .unwrap();
    let started = Instant::now();
    let error = client
        .call_tool("endless", json!({"delay_ms": 400}))
        .await
        .unwrap_err();
    assert!(error.is_timeout(), "{error}");
    assert!(
        started.elapsed() < Duration::from_millis(2500),
        "{:?}",
        started.elapsed()
    );
}

#[tokio::test]
async fn a_server_that_never_completes_gets_ten_retries_and_no_eleventh() {
    let client = python_2026().build().await.unwrap();
    let error = client.call_tool("endless", json!({})).await.unwrap_err();
    assert!(
        error.to_string().contains("`input_required` 10 times over"),
        "{error}"
    );
    // The first call and ten retries; the eleventh `input_required` is not answered.
    let calls = client.call_tool("endless_calls", json!({})).await.unwrap();
    let calls = calls.text();
    let calls: Vec<&str> = calls.split(' ').collect();
    assert_eq!(calls.len(), 11, "{calls:?}");
    // The retries echo the state, each under a new id.
    assert!(calls[0].ends_with(":None"), "{calls:?}");
    assert!(
        calls[1..].iter().all(|call| call.ends_with(":again")),
        "{calls:?}"
    );
    let ids: std::collections::HashSet<&str> = calls
        .iter()
        .map(|call| call.split(':').next().unwrap())
        .collect();
    assert_eq!(ids.len(), 11, "{calls:?}");
}

#[tokio::test]
async fn a_probe_that_cannot_reach_the_server_is_the_usual_connection_error() {
    let port = mcp_assured::fixture::free_port().unwrap();
    let refused = McpAssured::client()
        .base_uri(format!("http://127.0.0.1:{port}/mcp"))
        .newest_protocol()
        .build()
        .await
        .unwrap_err();
    assert!(matches!(refused, Error::Connect { .. }), "{refused:?}");
    assert!(
        refused.to_string().contains("connection refused"),
        "{refused}"
    );
}
