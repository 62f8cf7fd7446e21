//! `#[mcp_test]` itself: every server source and transport, fixtures, snapshots, and the
//! teardown after a pass, a panic, a timeout or a failed start.

use std::{cell::Cell, panic::AssertUnwindSafe, time::Duration};

use mcp_assured::{
    McpClient, assert_tool_snapshot,
    fixture::{BoxError, Fixture, FixtureContext, ServerProcess, Stage},
    mcp_test,
    model::{ElicitResult, ElicitationAction},
    prelude::*,
    wiremock::{
        Mock, MockServer, ResponseTemplate,
        matchers::{method, path},
    },
};
use mcp_assured_examples::ExampleServer;
use mcp_assured_tests::{ExampleHttp, processes::assert_reaped};
use serde_json::json;

/// Runs against the example server four ways: in this process, and as a child process over
/// stdio, streamable HTTP (on a port the fixture picks) and HTTP+SSE.
#[mcp_test(
    protocol = "2025-11-25",
    server = [service(ExampleServer::new()), bin("example-server")],
    transport = [
        stdio,
        http(args("--transport", "streamable-http", "--port", "{port}")),
        sse(args("--transport", "sse", "--port", "{port}")),
    ],
)]
async fn echo_on_every_transport(client: McpClient, server: &ServerProcess) {
    let result = client
        .call_tool("echo", json!({"message": "hello"}))
        .await
        .unwrap();
    result.assert().is_success().text_equals("hello");
    // One snapshot file per variant (`@in_process`, `@stdio`, ...), identical content.
    assert_tool_snapshot!(result);
    let in_process = server.description().contains("ExampleServer");
    assert_eq!(
        server.pid().is_none(),
        in_process,
        "{}",
        server.description()
    );
    assert_eq!(server.port().is_some(), server.url().is_some());
}

#[test]
fn variants_are_named_after_their_transport() {
    // The generated tests exist under these names (this does not compile otherwise).
    let _: [fn(); 4] = [
        echo_on_every_transport::in_process,
        echo_on_every_transport::stdio,
        echo_on_every_transport::http,
        echo_on_every_transport::sse,
    ];
}

#[mcp_test(protocol = "2025-11-25", server = service(ExampleServer::new()), timeout = "10s")]
async fn in_process_snapshot_is_named_after_the_test(client: &McpClient) {
    let result = client
        .call_tool("weather", json!({"city": "Paris"}))
        .await
        .unwrap();
    assert_tool_snapshot!(result);
    // insta's own macros get the default redactions inside #[mcp_test] too.
    insta::assert_json_snapshot!(
        "redacted_by_default",
        json!({"at": "2026-11-22T10:00:00Z", "durationMs": 12, "temperature": 18})
    );
    // At any depth, in YAML too; an object under a volatile key is a schema, and stays.
    insta::assert_yaml_snapshot!(
        json!({
            "calls": [{
                "_meta": {"progressToken": 3},
                "durationMs": 4.5,
                "id": "123e4567-e89b-12d3-a456-426614174000",
                "url": "http://127.0.0.1:40123/mcp",
            }],
            "duration": {"type": "number"},
        }),
        @r#"
    calls:
      - _meta:
          progressToken: "[progress-token]"
        durationMs: "[duration]"
        id: "[uuid]"
        url: "http://127.0.0.1:[port]/mcp"
    duration:
      type: number
    "#
    );
}

#[mcp_test(server = service(ExampleServer::new()))]
async fn may_return_a_result(client: McpClient) -> mcp_assured::Result<()> {
    client.ping().await?;
    let tools = client.list_tools().await?;
    tools.assert().contains_tool("echo");
    Ok(())
}

#[mcp_test(protocol = "2025-11-25", server = url(running.url.clone()))]
async fn reaches_a_running_server_by_url(
    client: McpClient,
    running: &ExampleHttp,
    server: &ServerProcess,
) {
    assert_eq!(server.url(), Some(running.url.as_str()));
    assert_eq!(server.pid(), None);
    client.ping().await.unwrap();
}

/// Made after the client connected, through which it seeds the server.
#[derive(Debug)]
struct Counted(u64);

impl Fixture for Counted {
    const STAGE: Stage = Stage::AfterServer;

    async fn setup(ctx: &mut FixtureContext<'_>) -> Result<Self, BoxError> {
        let client = ctx.client().ok_or("no client")?;
        client.read_resource("example://counter").await?;
        Ok(Counted(1))
    }
}

#[mcp_test(protocol = "2025-11-25", server = service(ExampleServer::new()))]
async fn fixtures_can_use_the_client(client: McpClient, counted: Counted) {
    assert_eq!(counted.0, 1);
    client.ping().await.unwrap();
}

/// By value, by reference and by mutable reference in one test, in stage order whatever
/// the parameter order: `counted` needs the client, `backend` comes before the server.
#[mcp_test(protocol = "2025-11-25", server = service(ExampleServer::new()))]
async fn fixtures_pass_by_value_and_by_reference(
    counted: &mut Counted,
    client: McpClient,
    backend: &MockServer,
) {
    counted.0 += 1;
    assert_eq!(counted.0, 2);
    assert!(backend.uri().starts_with("http://127.0.0.1:"));
    client.ping().await.unwrap();
}

/// `{backend}` in `env(..)` and `args(..)` is the mock server's URI; a shell prints both to
/// stderr and then becomes the example server.
#[mcp_test(
    server = command(
        "sh",
        "-c",
        r#"echo "env=$API_URL auth=$AUTH_URL arg=$1" >&2; exec "$0""#,
        env!("CARGO_BIN_EXE_example-server"),
    ),
    args("{backend}/v1"),
    env(API_URL = "{backend}", AUTH_URL = "{auth}"),
)]
async fn placeholders_reach_the_child(
    client: McpClient,
    backend: &MockServer,
    auth: MockServer,
    server: &ServerProcess,
) {
    client.ping().await.unwrap();
    let uri = backend.uri();
    assert_ne!(
        uri,
        auth.uri(),
        "each MockServer parameter is a server of its own"
    );
    assert_eq!(
        server.stderr_tail().as_deref(),
        Some(format!("env={uri} auth={} arg={uri}/v1", auth.uri()).as_str())
    );
    Mock::given(method("GET"))
        .and(path("/ping"))
        .respond_with(ResponseTemplate::new(200))
        .expect(1)
        .mount(backend)
        .await;
    reqwest::get(format!("{uri}/ping")).await.unwrap();
}

// ----- teardown ---------------------------------------------------------------------------

thread_local! {
    /// The child of the last test run on this thread.
    static CHILD: Cell<Option<u32>> = const { Cell::new(None) };
}

fn record_child(server: &ServerProcess) {
    CHILD.set(server.pid());
}

/// Runs a generated test, returning its panic message.
fn failure_of(test: fn()) -> String {
    CHILD.set(None);
    let panic = std::panic::catch_unwind(AssertUnwindSafe(test)).expect_err("the test must fail");
    panic
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| panic.downcast_ref::<&str>().map(|s| (*s).to_owned()))
        .unwrap_or_default()
}

/// The child recorded by the last run is gone and reaped (not even a zombie).
fn assert_child_reaped() {
    assert_reaped(CHILD.get().expect("the test recorded its child"));
}

mod failing {
    use super::*;

    #[mcp_test(server = bin("example-server"))]
    #[should_panic(expected = "deliberate failure")]
    pub async fn panics(server: &ServerProcess) {
        record_child(server);
        panic!("deliberate failure");
    }

    #[mcp_test(
        server = bin("example-server"),
        transport = http(args("--transport", "streamable-http", "--port", "{port}")),
        timeout = "1s"
    )]
    #[should_panic(expected = "timed out after 1s while running the test body")]
    pub async fn times_out(server: &ServerProcess) {
        record_child(server);
        tokio::time::sleep(Duration::from_secs(30)).await;
    }

    #[mcp_test(server = bin("example-server"), timeout = "4s")]
    #[should_panic(expected = "timed out")]
    pub async fn hung_call_times_out_before_the_test(client: McpClient, server: &ServerProcess) {
        record_child(server);
        let error = client.call_tool("hang", json!({})).await.unwrap_err();
        assert!(error.is_timeout(), "{error}");
        panic!("the request timed out");
    }

    #[mcp_test(
        server = command("sh", "-c", "echo 'still booting' >&2; sleep 30"),
        startup_timeout = "300ms",
        timeout = "10s"
    )]
    #[should_panic(
        expected = "`initialize` got no answer within 300ms; the server did not start in time"
    )]
    pub async fn a_server_that_never_answers_initialize(client: McpClient) {
        client.ping().await.unwrap();
    }

    #[mcp_test(server = command("sh", "-c", "echo 'config missing' >&2; exit 3"), timeout = "10s")]
    #[should_panic(expected = "config missing")]
    pub async fn stdio_server_exits_at_start(client: McpClient) {
        client.ping().await.unwrap();
    }

    #[mcp_test(
        server = command("sh", "-c", "echo 'cannot bind' >&2; exit 1"),
        transport = http,
        timeout = "10s"
    )]
    #[should_panic(expected = "cannot bind")]
    pub async fn http_server_exits_at_start(client: McpClient) {
        client.ping().await.unwrap();
    }

    #[mcp_test(
        server = command(
            "sh",
            "-c",
            r#"echo "server: starting up" >&2; exec "$0""#,
            env!("CARGO_BIN_EXE_example-server"),
        ),
    )]
    #[should_panic(expected = "assertion failed")]
    pub async fn prints_the_server_stderr(client: McpClient) {
        client.ping().await.unwrap();
        assert!(
            client.list_tools().await.unwrap().is_empty(),
            "assertion failed"
        );
    }

    #[mcp_test(server = service(ExampleServer::new()))]
    #[should_panic(expected = "Verifications failed")]
    pub async fn unmet_mock_expectations(client: McpClient, backend: MockServer) {
        Mock::given(method("GET"))
            .respond_with(ResponseTemplate::new(200))
            .expect(1)
            .mount(&backend)
            .await;
        client.ping().await.unwrap();
    }
}

#[test]
fn a_panic_is_reported_as_is_and_the_child_reaped() {
    assert_eq!(failure_of(failing::panics), "deliberate failure");
    assert_child_reaped();
}

#[test]
fn a_timeout_names_what_the_test_was_doing_and_the_child_is_reaped() {
    let message = failure_of(failing::times_out);
    assert!(
        message.starts_with("the test timed out after 1s while running the test body"),
        "{message}"
    );
    assert_child_reaped();
}

#[test]
fn a_hung_request_times_out_before_the_test_does() {
    let message = failure_of(failing::hung_call_times_out_before_the_test);
    assert_eq!(message, "the request timed out");
    assert_child_reaped();
}

#[test]
fn a_server_that_never_starts_names_the_startup_timeout_and_shows_its_stderr() {
    let message = failure_of(failing::a_server_that_never_answers_initialize);
    assert!(
        message.starts_with("the test could not start:"),
        "{message}"
    );
    assert!(message.contains("`.startup_timeout(..)`"), "{message}");
    assert!(message.contains("still booting"), "{message}");
}

#[test]
fn a_server_that_exits_at_start_is_reported_with_its_stderr() {
    let message = failure_of(failing::stdio_server_exits_at_start);
    assert!(
        message.starts_with("the test could not start:"),
        "{message}"
    );
    assert!(message.contains("config missing"), "{message}");
    let message = failure_of(failing::http_server_exits_at_start);
    assert!(
        message.contains("exited (exit status: 1) before listening"),
        "{message}"
    );
    assert!(message.contains("cannot bind"), "{message}");
}

#[test]
fn a_failed_test_prints_the_servers_stderr() {
    // Run in a process of its own to see what it prints.
    let output = std::process::Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            "failing::prints_the_server_stderr",
            "--nocapture",
        ])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{stdout}{stderr}");
    let report = stderr
        .split_once("---- the server's last output (sh -c ")
        .map(|(_, report)| report)
        .unwrap_or_else(|| panic!("no server output in:\n{stdout}{stderr}"));
    assert!(
        report.contains("----\nserver: starting up\n----"),
        "{stderr}"
    );
}

#[test]
fn unmet_mock_expectations_fail_the_test_once() {
    let message = failure_of(failing::unmet_mock_expectations);
    assert!(message.contains("Verifications failed"), "{message}");
}

// ----- module suites and client options -------------------------------------------------

/// The module's options are the defaults of each `#[mcp_test]` inside it.
#[mcp_test(server = service(ExampleServer::new()), timeout = "20s")]
mod suite {
    use super::*;

    #[mcp_test]
    async fn uses_the_module_server(client: McpClient, server: &ServerProcess) {
        assert!(server.description().contains("ExampleServer"));
        client.ping().await.unwrap();
    }

    #[mcp_test(server = bin("example-server"))]
    async fn overrides_the_server(server: &ServerProcess) {
        assert!(server.pid().is_some());
    }

    /// What the `client` option sets on a child's command line (here its environment) stays
    /// when the attribute's server is attached: the server starts only if it sees it.
    #[mcp_test(
        server = command(
            "sh",
            "-c",
            r#"[ "$MARKER" = from-the-client-option ] && exec "$0"; echo "MARKER is missing" >&2; exit 3"#,
            env!("CARGO_BIN_EXE_example-server"),
        ),
        client = |builder| builder.env("MARKER", "from-the-client-option"),
    )]
    async fn client_options_reach_a_stdio_child(client: McpClient) {
        client.ping().await.unwrap();
    }

    #[mcp_test(
        protocol = "2025-11-25",
        client = |builder| builder.on_elicitation(|_| {
            ElicitResult::new(ElicitationAction::Accept).with_content(json!({"name": "Ada"}))
        }),
    )]
    async fn client_options_answer_the_server(client: McpClient) {
        client
            .call_tool("elicit", json!({"message": "Your name?"}))
            .await
            .unwrap()
            .assert()
            .is_success()
            .text_contains("Ada");
    }

    /// Not a test: only `#[mcp_test]` functions get the module's options.
    #[allow(dead_code)]
    async fn helper() {}
}

// ----- client options -----------------------------------------------------------------------

#[mcp_test(server = service(ExampleServer::new()), protocol = "2025-06-18")]
async fn offers_the_pinned_protocol_version(client: McpClient) {
    assert_eq!(client.protocol_version(), "2025-06-18");
}

/// A protocol matrix: every transport on every revision, one test each, named after both
/// (`stdio_v2026_07_28`, ...); each snapshot file is named after its variant, and holds the
/// revision the connection spoke.
#[mcp_test(
    server = bin("example-server"),
    transport = [stdio, http(args("--transport", "streamable-http", "--port", "{port}"))],
    protocol = ["2025-06-18", "2025-11-25", "2026-07-28"],
)]
async fn speaks_every_revision(client: McpClient) {
    let result = client
        .call_tool("echo", json!({"message": client.protocol_version()}))
        .await
        .unwrap();
    result.assert().is_success();
    assert_tool_snapshot!(result);
}

#[test]
fn protocol_variants_are_named_after_the_revision() {
    let _: [fn(); 6] = [
        speaks_every_revision::stdio_v2025_06_18,
        speaks_every_revision::stdio_v2025_11_25,
        speaks_every_revision::stdio_v2026_07_28,
        speaks_every_revision::http_v2025_06_18,
        speaks_every_revision::http_v2025_11_25,
        speaks_every_revision::http_v2026_07_28,
    ];
}

/// `newest` negotiates: the example server (rmcp) speaks 2026-07-28.
#[mcp_test(server = service(ExampleServer::new()), protocol = "newest")]
async fn negotiates_the_newest_revision(client: McpClient) {
    assert_eq!(client.protocol_version(), "2026-07-28");
    assert!(client.discovery().is_some());
}

#[mcp_test(
    protocol = "2025-11-25",
    server = bin("example-server"),
    transport = http(args("--transport", "streamable-http", "--port", "{port}", "--bearer-token", "s3cret")),
    bearer_token = "s3cret",
)]
async fn sends_the_bearer_token(client: McpClient) {
    client.ping().await.unwrap();
}

#[mcp_test(
    protocol = "2025-11-25",
    server = bin("example-server"),
    transport = http(
        args("--transport", "streamable-http", "--port", "{port}"),
        env(EXAMPLE_SERVER_TOKEN = "s3cret"),
    ),
    headers("Authorization" = format!("Bearer {}", "s3cret")),
)]
async fn sends_custom_headers(client: McpClient) {
    client.ping().await.unwrap();
}

/// Where `mcp_assured` is re-exported under another path.
mod reexported {
    pub use mcp_assured as harness;
}

#[mcp_test(crate = "crate::reexported::harness", server = service(ExampleServer::new()))]
async fn finds_the_crate_where_it_is_reexported(client: McpClient) {
    client.ping().await.unwrap();
}
