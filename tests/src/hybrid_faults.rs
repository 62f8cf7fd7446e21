//! The example hybrid server (`weather-server`'s library) breaking, one [`HybridFault`] at a
//! time, what it declares of its tools: each fault is a layer in front of the real server
//! that changes what it says (its listings) or what reaches it (a token), so the server
//! declares one thing and does another, as a buggy hybrid server would. Each fault is
//! caught by one of `mcp_assured::checks`' hybrid checks.
//!
//! The server underneath is configured as [`policy`] and [`scoped_tokens`] say, with the
//! bearer token [`ROOT_TOKEN`] granting every tool.

use std::sync::Arc;

use axum::{
    Router,
    body::Body,
    extract::{Request, State},
    http::{HeaderValue, Method, header},
    middleware::{self, Next},
    response::Response,
};
use mcp_assured::wiremock::{
    Mock, MockServer, ResponseTemplate,
    matchers::{method, path, path_regex},
};
use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;
use weather_server::{WeatherServer, cache::AnswerCache, policy::Policies, rest::RestOptions};

/// The token that grants every tool.
pub const ROOT_TOKEN: &str = "root";
/// The token that grants `weather:read` only (not `alerts:read`).
pub const READER_TOKEN: &str = "reader";

/// One way to break what the server declares.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum HybridFault {
    /// None: the server as it is.
    None,
    /// Every token is taken for the root token: nothing is refused for a permission
    /// (`hybrid.permissions`).
    IgnoresPermissions,
    /// The same over MCP only; REST still refuses (`hybrid.permissions`, one face).
    McpIgnoresPermissions,
    /// `forecast` lists a `maxExecutionTime` of 300 ms but runs for 5 s
    /// (`hybrid.max_execution_time`).
    DeclaresShorterTimeout,
    /// `current_weather` lists `onConcurrencyLimit: "reject"` but makes calls wait
    /// (`hybrid.max_concurrency`).
    WaitsInsteadOfRejecting,
    /// Every tool lists `onConcurrencyLimit: "wait"` but refuses calls over its limit
    /// (`hybrid.max_concurrency`).
    RejectsInsteadOfWaiting,
    /// Every tool lists a `maxPayloadSize` of 0.001 MB but takes 10 MB
    /// (`hybrid.max_payload_size`).
    DeclaresSmallerPayload,
    /// The REST listing says `weather_alerts` needs `alerts:write`, MCP `alerts:read`
    /// (`hybrid.declarations`).
    DeclarationsDiffer,
    /// A streamed execution's lines are held back and sent all at once at the end
    /// (`hybrid.streaming`).
    BufferedStream,
    /// MCP sends no `notifications/progress` for a call that streams progress over REST
    /// (`hybrid.streaming`).
    NoMcpProgress,
}

/// The policy of the server underneath: every tool takes 0.01 MB, `forecast` times out at
/// 300 ms (5 s with [`HybridFault::DeclaresShorterTimeout`]), `current_weather` runs one
/// call at a time and `weather_alerts` takes 0.001 MB, except where the fault needs
/// otherwise.
pub fn policy(fault: HybridFault) -> Value {
    let forecast_time = if fault == HybridFault::DeclaresShorterTimeout {
        5000
    } else {
        300
    };
    let current_on_limit = if fault == HybridFault::WaitsInsteadOfRejecting {
        "wait"
    } else {
        "reject"
    };
    let alerts_payload = if fault == HybridFault::DeclaresSmallerPayload {
        10.0
    } else {
        0.001
    };
    json!({
        // Small payload limits keep the payload check's requests small (10 KB, not 10 MB).
        "*": {"limits": {"maxPayloadSize": 0.01}},
        "forecast": {"limits": {"maxExecutionTime": forecast_time}},
        "current_weather": {"limits": {"maxConcurrency": 1, "onConcurrencyLimit": current_on_limit}},
        "weather_alerts": {"limits": {"maxPayloadSize": alerts_payload}},
    })
}

/// The weather API the server calls, as the hybrid checks' tests have it: `/weather` after
/// 200 ms (so that calls overlap and streams take time), `/forecast` after 2 s (past
/// `forecast`'s `maxExecutionTime`), `/alerts` at once.
pub async fn mount_api(backend: &MockServer) {
    let answers = [
        (
            "/weather",
            json!({"city": "London", "temperature": 15, "conditions": "cloudy"}),
            200,
        ),
        ("/forecast", json!({"city": "London", "days": []}), 2000),
    ];
    for (route, body, delay) in answers {
        Mock::given(method("GET"))
            .and(path(route))
            .respond_with(
                ResponseTemplate::new(200)
                    .set_body_json(body)
                    .set_delay(std::time::Duration::from_millis(delay)),
            )
            .mount(backend)
            .await;
    }
    Mock::given(method("GET"))
        .and(path_regex("^/alerts/"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({"alerts": []})))
        .mount(backend)
        .await;
}

/// The scoped tokens: [`READER_TOKEN`] grants `weather:read`.
pub fn scoped_tokens() -> [(&'static str, Vec<&'static str>); 1] {
    [(READER_TOKEN, vec!["weather:read"])]
}

/// The weather server calling the API at `api_url`, MCP at `/mcp` and REST at
/// `/mcp/tools`, with `fault` in front.
///
/// # Panics
///
/// If [`policy`] is not one the server takes (a bug here).
pub fn app(api_url: &str, fault: HybridFault, shutdown: CancellationToken) -> Router {
    let policies = Policies::declared()
        .with_overrides(&policy(fault))
        .expect("the fault server's policy");
    // Every call reaches the API, which takes its time on purpose: an answer from the cache
    // would come at once, and the checks could not tell calls that ran together.
    let server = WeatherServer::new(api_url)
        .with_cache(AnswerCache::off())
        .with_policies(policies);
    let mut options = RestOptions::default().bearer_token(ROOT_TOKEN);
    for (token, scopes) in scoped_tokens() {
        options = options.scoped_token(token, scopes);
    }
    let app = weather_server::serve::hybrid_app(server, options, shutdown);
    if fault == HybridFault::None {
        return app;
    }
    app.layer(middleware::from_fn_with_state(Arc::new(fault), break_it))
}

async fn break_it(
    State(fault): State<Arc<HybridFault>>,
    mut request: Request,
    next: Next,
) -> Response {
    let path = request.uri().path().to_owned();
    let is_mcp = path == "/mcp";
    let is_listing = path == "/mcp/tools" && request.method() == Method::GET;
    let rewrites_tokens = match *fault {
        HybridFault::IgnoresPermissions => true,
        HybridFault::McpIgnoresPermissions => is_mcp,
        _ => false,
    };
    if rewrites_tokens && request.headers().contains_key(header::AUTHORIZATION) {
        request.headers_mut().insert(
            header::AUTHORIZATION,
            HeaderValue::from_static("Bearer root"),
        );
    }
    let posted_to_mcp = is_mcp && request.method() == Method::POST;
    let response = next.run(request).await;
    let rewrite: Option<fn(&str) -> String> = match *fault {
        HybridFault::DeclaresShorterTimeout if is_listing || posted_to_mcp => {
            Some(|body| body.replace("\"maxExecutionTime\":5000", "\"maxExecutionTime\":300"))
        }
        HybridFault::WaitsInsteadOfRejecting if is_listing || posted_to_mcp => Some(|body| {
            body.replace(
                "\"onConcurrencyLimit\":\"wait\"",
                "\"onConcurrencyLimit\":\"reject\"",
            )
        }),
        HybridFault::RejectsInsteadOfWaiting if is_listing || posted_to_mcp => Some(|body| {
            body.replace(
                "\"onConcurrencyLimit\":\"reject\"",
                "\"onConcurrencyLimit\":\"wait\"",
            )
        }),
        HybridFault::DeclaresSmallerPayload if is_listing || posted_to_mcp => {
            Some(|body| body.replace("\"maxPayloadSize\":10", "\"maxPayloadSize\":0.001"))
        }
        HybridFault::DeclarationsDiffer if is_listing => {
            Some(|body| body.replace("\"alerts:read\"", "\"alerts:write\""))
        }
        HybridFault::NoMcpProgress if posted_to_mcp => Some(without_progress),
        HybridFault::BufferedStream
            if response
                .headers()
                .get(header::CONTENT_TYPE)
                .is_some_and(|value| value.as_bytes().starts_with(b"application/x-ndjson")) =>
        {
            Some(str::to_owned)
        }
        _ => None,
    };
    match rewrite {
        Some(rewrite) => rewritten(response, rewrite).await,
        None => response,
    }
}

/// `response` with its whole body read, then `rewrite`n (and so sent at once).
async fn rewritten(response: Response, rewrite: fn(&str) -> String) -> Response {
    let (mut parts, body) = response.into_parts();
    let bytes = axum::body::to_bytes(body, usize::MAX)
        .await
        .unwrap_or_default();
    let text = rewrite(&String::from_utf8_lossy(&bytes));
    parts.headers.remove(header::CONTENT_LENGTH);
    Response::from_parts(parts, Body::from(text))
}

/// An SSE body without its `notifications/progress` events.
fn without_progress(body: &str) -> String {
    body.split_inclusive("\n\n")
        .filter(|event| !event.contains("notifications/progress"))
        .collect()
}
