//! The weather server's tool policies on both faces: permissions from the bearer token's
//! scopes, the four resource limits, the lifecycle hooks (through the audit log), and
//! `weather_report`'s streamed result with its progress; then the harness's hybrid checks
//! on it, every one passing.

use std::{
    path::PathBuf,
    time::{Duration, Instant},
};

use mcp_assured::{
    McpAssured, McpClient,
    checks::{HYBRID_CHECKS, HybridOptions, check_hybrid_with},
    fixture::{BoxError, Fixture, FixtureContext, ServerProcess},
    mcp_test,
    prelude::*,
    rest::{ErrorCode, OnConcurrencyLimit, RestClient, StreamEvent},
    wiremock::{
        Mock, MockServer, ResponseTemplate,
        matchers::{method, path, path_regex, query_param},
    },
};
use serde_json::{Value, json};

/// A file for the server's audit log, removed after the test; `{audit_log}` is its path.
#[derive(Debug)]
struct AuditLog(PathBuf);

impl Fixture for AuditLog {
    async fn setup(ctx: &mut FixtureContext<'_>) -> Result<Self, BoxError> {
        let dir = std::env::temp_dir().join(format!(
            "weather-audit-{}-{}",
            ctx.test_name().replace("::", "-"),
            std::process::id()
        ));
        std::fs::create_dir_all(&dir)?;
        let remove = dir.clone();
        ctx.defer(async move {
            let _ = std::fs::remove_dir_all(remove);
        });
        Ok(AuditLog(dir.join("audit.jsonl")))
    }

    fn placeholder(&self) -> Option<String> {
        Some(self.0.display().to_string())
    }
}

impl AuditLog {
    /// Every line written so far.
    fn lines(&self) -> Vec<Value> {
        std::fs::read_to_string(&self.0)
            .unwrap_or_default()
            .lines()
            .map(|line| serde_json::from_str(line).unwrap())
            .collect()
    }
}

fn base_url(server: &ServerProcess) -> String {
    format!(
        "http://127.0.0.1:{}",
        server.port().expect("an HTTP server")
    )
}

/// The REST face with `token`.
fn rest(server: &ServerProcess, token: &str) -> RestClient {
    McpAssured::rest()
        .base_uri(base_url(server))
        .bearer_token(token)
        .timeout(Duration::from_secs(10))
        .build()
        .unwrap()
}

/// A second MCP session with `token`.
async fn mcp(server: &ServerProcess, token: &str) -> McpClient {
    McpAssured::client()
        .base_uri(format!("{}/mcp", base_url(server)))
        .bearer_token(token)
        .build()
        .await
        .unwrap()
}

/// The API as these tests have it: `/weather` after 200 ms (so that calls overlap and
/// streams take time), 1 KB for `city=Big` (over `current_weather`'s `maxMemory`),
/// `/forecast` after 2 s (over its `maxExecutionTime` of 300 ms), `/alerts` at once.
async fn the_api(backend: &MockServer) {
    let big = json!({"city": "Big", "temperature": 1, "conditions": "x".repeat(1024)});
    Mock::given(method("GET"))
        .and(path("/weather"))
        .and(query_param("city", "Big"))
        .respond_with(ResponseTemplate::new(200).set_body_json(big))
        .with_priority(1)
        .mount(backend)
        .await;
    Mock::given(method("GET"))
        .and(path("/weather"))
        .respond_with(
            ResponseTemplate::new(200)
                .set_body_json(json!({"city": "London", "temperature": 15, "conditions": "cloudy"}))
                .set_delay(Duration::from_millis(200)),
        )
        .mount(backend)
        .await;
    Mock::given(method("GET"))
        .and(path("/forecast"))
        .respond_with(
            ResponseTemplate::new(200)
                .set_body_json(json!({"city": "London", "days": []}))
                .set_delay(Duration::from_secs(2)),
        )
        .mount(backend)
        .await;
    Mock::given(method("GET"))
        .and(path_regex("^/alerts/"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({"alerts": []})))
        .mount(backend)
        .await;
}

/// The tool error's code as the server puts it in `_meta.error.code`.
fn meta_code(result: &mcp_assured::ToolResult) -> Option<String> {
    result
        .meta
        .as_ref()?
        .get("error")?
        .get("code")?
        .as_str()
        .map(str::to_owned)
}

#[mcp_test(
    server = bin("weather-server"),
    transport = http(args(
        "--port", "{port}", "--rest", "--bearer-token", "root",
        "--policy", r#"{{"forecast": {{"limits": {{"maxExecutionTime": 300}}}},
                        "current_weather": {{"limits": {{"maxConcurrency": 1, "maxMemory": 0.0005}}}},
                        "weather_alerts": {{"limits": {{"maxPayloadSize": 0.001}}}}}}"#,
    )),
    env(
        WEATHER_API_URL = "{backend}",
        WEATHER_SCOPED_TOKENS = r#"{{"reader": ["weather:read"]}}"#,
        WEATHER_AUDIT_LOG = "{audit_log}",
        // Every call reaches the API: the limits are measured on calls that take the API's
        // time, which an answer from the cache would not.
        WEATHER_CACHE_TTL = "0",
    ),
    // `{{` and `}}` are literal braces (`{name}` is a placeholder).
    bearer_token = "root",
    timeout = "60s",
)]
mod policies {
    use super::*;

    #[mcp_test]
    async fn both_faces_list_each_tools_permissions_and_limits(
        client: McpClient,
        server: &ServerProcess,
        backend: &MockServer,
        audit_log: &AuditLog,
    ) {
        let _ = (backend, audit_log);
        let listed = rest(server, "root").list_tools().await.unwrap();
        listed
            .assert()
            .policies_are_well_formed()
            .tool("weather_alerts")
            .requires_permissions(&["weather:read", "alerts:read"])
            .has_limits("maxPayloadSize 0.001 MB", |limits| {
                limits.max_payload_size_mb == 0.001
            });
        listed
            .assert()
            .tool("weather_report")
            .has_max_concurrency(2, OnConcurrencyLimit::Wait);
        listed.assert().tool("forecast").has_limits(
            "maxExecutionTime 300 ms, the rest the protocol's defaults",
            |limits| {
                limits.max_execution_time == Duration::from_millis(300)
                    && limits.max_memory_mb == 512.0
                    && limits.max_concurrency == 10
            },
        );
        for tool in client.list_tools().await.unwrap().iter() {
            let over_rest = listed.tool(&tool.name).unwrap();
            let meta = tool.meta.as_ref().unwrap();
            assert_eq!(over_rest.permissions.as_ref(), meta.get("permissions"));
            assert_eq!(over_rest.limits.as_ref(), meta.get("limits"));
        }
    }

    #[mcp_test]
    async fn a_token_without_a_permission_is_refused_on_both_faces(
        server: &ServerProcess,
        backend: &MockServer,
        audit_log: &AuditLog,
    ) {
        let _ = audit_log;
        the_api(backend).await;
        let reader = rest(server, "reader");
        let refused = reader
            .execute("weather_alerts", json!({"region": "Kent"}))
            .await
            .unwrap();
        refused
            .assert()
            .is_conforming_envelope()
            .has_status(403)
            .has_error_code(ErrorCode::PermissionError)
            .message_contains("alerts:read");
        let details = refused.error.unwrap().details.unwrap();
        assert_eq!(details["missing"], json!(["alerts:read"]));
        assert_eq!(details["granted"], json!(["weather:read"]));
        reader
            .execute("current_weather", json!({"city": "London"}))
            .await
            .unwrap()
            .assert()
            .is_success();

        let session = mcp(server, "reader").await;
        let result = session
            .call_tool("weather_alerts", json!({"region": "Kent"}))
            .await
            .unwrap();
        result
            .assert()
            .is_tool_error()
            .text_contains("PERMISSION_ERROR: ");
        assert_eq!(meta_code(&result).as_deref(), Some("PERMISSION_ERROR"));
        let served = session
            .call_tool("current_weather", json!({"city": "London"}))
            .await
            .unwrap();
        served.assert().is_success();
        session.close().await.unwrap();
        // Nothing ran for the refused calls.
        let alerts_asked = backend
            .received_requests()
            .await
            .unwrap_or_default()
            .iter()
            .filter(|request| request.url.path().starts_with("/alerts"))
            .count();
        assert_eq!(alerts_asked, 0);
    }

    #[mcp_test]
    async fn max_execution_time_ends_a_slow_call_on_both_faces(
        client: McpClient,
        server: &ServerProcess,
        backend: &MockServer,
        audit_log: &AuditLog,
    ) {
        let _ = audit_log;
        the_api(backend).await;
        let started = Instant::now();
        let over_rest = rest(server, "root")
            .execute("forecast", json!({"city": "London", "days": 2}))
            .await
            .unwrap();
        assert!(
            started.elapsed() < Duration::from_millis(1500),
            "{:?}",
            started.elapsed()
        );
        over_rest
            .assert()
            .has_status(504)
            .has_error_code(ErrorCode::TimeoutError)
            .message_contains("took longer than 300 ms (its maxExecutionTime)");
        let started = Instant::now();
        let over_mcp = client
            .call_tool("forecast", json!({"city": "London", "days": 2}))
            .await
            .unwrap();
        assert!(started.elapsed() < Duration::from_millis(1500));
        over_mcp
            .assert()
            .is_tool_error()
            .text_contains("TIMEOUT_ERROR: ");
    }

    #[mcp_test]
    async fn max_concurrency_rejects_or_waits_as_declared(
        client: McpClient,
        server: &ServerProcess,
        backend: &MockServer,
        audit_log: &AuditLog,
    ) {
        let _ = audit_log;
        the_api(backend).await;
        let root = rest(server, "root");
        let call = || root.execute("current_weather", json!({"city": "London"}));
        let (first, second) = tokio::join!(call(), call());
        let mut codes: Vec<_> = [first.unwrap(), second.unwrap()]
            .into_iter()
            .map(|execution| (execution.status, execution.retry_after.clone()))
            .collect();
        codes.sort();
        assert_eq!(codes, [(200, None), (429, Some("1".to_owned()))]);
        // Over MCP the same: one of two at once is refused, as a tool error.
        let call = || client.call_tool("current_weather", json!({"city": "London"}));
        let (first, second) = tokio::join!(call(), call());
        let refused: Vec<_> = [first.unwrap(), second.unwrap()]
            .into_iter()
            .filter(|result| result.is_error == Some(true))
            .collect();
        assert_eq!(refused.len(), 1);
        assert_eq!(meta_code(&refused[0]).as_deref(), Some("RATE_LIMIT_ERROR"));
        // weather_report waits: three at once with two places all succeed, one later.
        let report = || root.execute("weather_report", json!({"cities": ["London"]}));
        let started = Instant::now();
        let (a, b, c) = tokio::join!(report(), report(), report());
        for execution in [a, b, c] {
            execution.unwrap().assert().is_success();
        }
        assert!(
            started.elapsed() >= Duration::from_millis(400),
            "{:?}",
            started.elapsed()
        );
    }

    #[mcp_test]
    async fn an_oversize_payload_is_refused_before_it_runs(
        client: McpClient,
        server: &ServerProcess,
        backend: &MockServer,
        audit_log: &AuditLog,
    ) {
        let _ = audit_log;
        the_api(backend).await;
        let region = "K".repeat(2000);
        rest(server, "root")
            .execute("weather_alerts", json!({ "region": region }))
            .await
            .unwrap()
            .assert()
            .has_status(413)
            .has_error_code(ErrorCode::ValidationError)
            .message_contains("maxPayloadSize of 0.001 MB");
        let result = client
            .call_tool("weather_alerts", json!({ "region": region }))
            .await
            .unwrap();
        result
            .assert()
            .is_tool_error()
            .text_contains("VALIDATION_ERROR: ");
        let requests = backend.received_requests().await.unwrap_or_default();
        assert!(
            requests
                .iter()
                .all(|request| !request.url.path().starts_with("/alerts"))
        );
    }

    #[mcp_test]
    async fn max_memory_caps_what_a_tool_holds_of_the_api(
        client: McpClient,
        backend: &MockServer,
        audit_log: &AuditLog,
    ) {
        let _ = audit_log;
        the_api(backend).await;
        client
            .call_tool("current_weather", json!({"city": "Big"}))
            .await
            .unwrap()
            .assert()
            .is_tool_error()
            .text_contains("larger than the 525 bytes this tool may hold (its maxMemory)");
    }

    #[mcp_test]
    async fn the_hooks_write_every_call_to_the_audit_log(
        client: McpClient,
        server: &ServerProcess,
        backend: &MockServer,
        audit_log: &AuditLog,
    ) {
        the_api(backend).await;
        client
            .call_tool("current_weather", json!({"city": "London"}))
            .await
            .unwrap()
            .assert()
            .is_success();
        rest(server, "root")
            .execute("forecast", json!({"city": "London", "days": 1}))
            .await
            .unwrap()
            .assert()
            .has_error_code(ErrorCode::TimeoutError);
        rest(server, "reader")
            .execute("weather_alerts", json!({"region": "Kent"}))
            .await
            .unwrap()
            .assert()
            .has_error_code(ErrorCode::PermissionError);
        let lines: Vec<(String, String, String, String)> = audit_log
            .lines()
            .iter()
            .map(|line| {
                let text = |key: &str| line[key].as_str().unwrap_or_default().to_owned();
                (text("hook"), text("tool"), text("face"), text("code"))
            })
            .collect();
        let expected = [
            ("beforeExecute", "current_weather", "mcp", ""),
            ("afterExecute", "current_weather", "mcp", ""),
            ("beforeExecute", "forecast", "rest", ""),
            ("onError", "forecast", "rest", "TIMEOUT_ERROR"),
            ("onError", "weather_alerts", "rest", "PERMISSION_ERROR"),
        ]
        .map(|(hook, tool, face, code)| {
            (
                hook.to_owned(),
                tool.to_owned(),
                face.to_owned(),
                code.to_owned(),
            )
        });
        assert_eq!(lines, expected);
        // Argument names, never their values.
        assert_eq!(audit_log.lines()[0]["params"], json!(["city"]));
    }

    #[mcp_test]
    async fn weather_report_streams_over_rest_and_reports_progress_over_mcp(
        client: McpClient,
        server: &ServerProcess,
        backend: &MockServer,
        audit_log: &AuditLog,
    ) {
        let _ = audit_log;
        the_api(backend).await;
        let cities = json!({"cities": ["London", "Oslo", "Paris"]});
        let mut stream = rest(server, "root")
            .execute_streaming("weather_report", cities.clone())
            .await
            .unwrap();
        assert!(stream.is_streamed());
        // The first item arrives while the other two cities are still being asked for.
        let first = stream.next().await.unwrap().unwrap();
        assert!(
            matches!(first, StreamEvent::Item(ref city) if city["temperature"] == 15),
            "{first:?}"
        );
        let done = stream.finish().await.unwrap();
        assert_eq!(done.items().len(), 3);
        assert_eq!(done.progress_count(), 3);
        assert!(
            done.lead() >= Duration::from_millis(300),
            "{:?}",
            done.lead()
        );
        done.execution.assert().is_success();
        assert_eq!(
            done.execution.result.as_ref().unwrap()["cities"]
                .as_array()
                .unwrap()
                .len(),
            3
        );

        let pending = client
            .start_call_tool("weather_report", cities)
            .await
            .unwrap();
        let token = serde_json::to_value(pending.progress_token()).unwrap();
        pending.result().await.unwrap().assert().is_success();
        let progress: Vec<_> = client
            .progress_notifications()
            .into_iter()
            .filter(|progress| progress.progress_token == token)
            .map(|progress| {
                (
                    progress.progress,
                    progress.total,
                    progress.message.unwrap_or_default(),
                )
            })
            .collect();
        assert_eq!(
            progress,
            [
                (1.0, Some(3.0), "1 of 3: London".to_owned()),
                (2.0, Some(3.0), "2 of 3: Oslo".to_owned()),
                (3.0, Some(3.0), "3 of 3: Paris".to_owned()),
            ]
        );
    }

    /// The harness's hybrid checks on this server: every one runs, and every one passes.
    #[mcp_test]
    async fn the_hybrid_checks_pass(
        client: McpClient,
        server: &ServerProcess,
        backend: &MockServer,
        audit_log: &AuditLog,
    ) {
        let _ = audit_log;
        the_api(backend).await;
        let reader = mcp_assured::Credentials::new().bearer_token("reader");
        let options = HybridOptions::new()
            .limited_credentials(reader, ["weather:read"])
            .slow_call("forecast", json!({"city": "London", "days": 2}))
            .arguments("weather_report", json!({"cities": ["London", "Oslo"]}));
        let report = check_hybrid_with(&client, &rest(server, "root"), &options).await;
        assert!(report.is_success(), "{report}");
        assert_eq!(report.passed(), HYBRID_CHECKS.len(), "{report}");
        eprintln!("{report}");
    }
}
